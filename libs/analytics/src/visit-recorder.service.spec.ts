import { Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { type NewVisit, OutboxWaker } from '@app/database';
import { BOT, type RawVisit } from './raw-visit';
import { UniqueVisitors } from './unique-visitors';
import type { VisitBatch } from './visit-batch';
import { VisitEnricher } from './visit-enricher';
import { VisitRecorder } from './visit-recorder.service';
import { type BatchOutcome, InlineVisitSink, type VisitSink } from './visit-sink';
import type { VisitWriter } from './visit-writer';
import type { VisitorInfo } from './visitor-info';

/** A PostgreSQL error as TypeORM raises it (QueryFailedError carries the driver's error). */
function pgError(code: string): Error {
  return Object.assign(new Error(`pg ${code}`), { driverError: { code } });
}

function setup(fail: (rows: NewVisit[]) => Error | null) {
  const stored: NewVisit[] = [];
  const calls: number[] = [];
  const visits = {
    isBusy: () => false,
    writeBatch: (rows: NewVisit[]) => {
      calls.push(rows.length);
      const error = fail(rows);
      if (error) {
        return Promise.reject(error);
      }
      stored.push(...rows);
      return Promise.resolve({ written: rows.length, limitedLinks: [], limitsReached: 0 });
    },
  } as unknown as VisitWriter;
  const info = {
    geoReady: () => true,
    loadGeo: () => Promise.resolve(),
    device: () => ({ os_name: null, browser_name: null, device_type: null }),
    geo: () => ({ continent_code: null, country_code: null, city_name: null }),
    language: () => null,
    botFamily: () => 'curl',
  } as unknown as VisitorInfo;
  const recorder = new VisitRecorder(
    new InlineVisitSink(
      new VisitEnricher(info, Buffer.alloc(32, 1), new UniqueVisitors(null)),
      visits,
      true,
    ),
    new EventEmitter2(),
    new OutboxWaker(),
  );
  return { recorder, stored, calls };
}

function raw(linkId: number, query: string | null = null): RawVisit {
  return {
    linkId,
    at: Date.UTC(2026, 10, 23, 12),
    ip: '203.0.113.9',
    userAgent: 'Mozilla/5.0',
    referer: undefined,
    acceptLanguage: undefined,
    query,
    kind: 0,
    qrCodeId: 0,
  };
}

describe(VisitRecorder.name, () => {
  it('writes a batch in one call', async () => {
    const { recorder, stored, calls } = setup(() => null);
    [1, 2, 3].forEach((id) => recorder.record(raw(id)));
    await recorder.flushAll();
    expect(calls).toEqual([3]);
    expect(stored.map((v) => v.link_id)).toEqual([1, 2, 3]);
    expect([recorder.counted, recorder.written, recorder.dropped]).toEqual([3, 3, 0]);
    expect(recorder.unflushed(2)).toBe(0);
  });

  it("keeps a bot's visits off its link's unflushed clicks, through writes, refusals and overflow", async () => {
    const bot = (linkId: number): RawVisit => ({ ...raw(linkId), ip: '', kind: BOT });
    // Link 3's visitor breaks a constraint: its batch is written one at a time, the bot alone.
    const { recorder, stored } = setup((rows) =>
      rows.some((v) => v.link_id === 3 && v.bot === null) ? pgError('21000') : null,
    );
    recorder.maxBuffered = 5;
    [bot(1), raw(1), bot(2), bot(3), raw(3), bot(1)].forEach((v) => recorder.record(v));
    // The first (a bot's) went with the overflow, releasing nothing.
    expect([1, 2, 3].map((id) => recorder.unflushed(id))).toEqual([1, 0, 1]);
    await recorder.flushAll();
    expect(stored.map((v) => [v.link_id, v.bot])).toEqual([
      [1, null],
      [2, 'curl'],
      [3, 'curl'],
      [1, 'curl'],
    ]);
    expect([1, 2, 3].map((id) => recorder.unflushed(id))).toEqual([0, 0, 0]);
    expect([recorder.written, recorder.dropped, recorder.overflowed]).toEqual([4, 1, 1]);
  });

  it('drops only the visit the database refuses as data, and writes the others', async () => {
    // Link 2's visits break a constraint: on their own, and in any batch holding one.
    const { recorder, stored, calls } = setup((rows) =>
      rows.some((v) => v.link_id === 2) ? pgError('21000') : null,
    );
    [1, 2, 3, 2, 4].forEach((id) => recorder.record(raw(id)));
    await recorder.flushAll();
    expect(calls).toEqual([5, 1, 1, 1, 1, 1]);
    expect(stored.map((v) => v.link_id)).toEqual([1, 3, 4]);
    expect([recorder.written, recorder.dropped]).toEqual([3, 2]);
    expect(recorder.unflushed(2)).toBe(0);
    // The buffer is empty: a later flush writes nothing again.
    await recorder.flushAll();
    expect(calls).toHaveLength(6);
  });

  it('keeps every visit for the next flush while the database is down', async () => {
    let down = true;
    const { recorder, stored } = setup(() => (down ? pgError('57P01') : null));
    [1, 2].forEach((id) => recorder.record(raw(id)));
    await recorder.flushAll();
    expect([stored.length, recorder.dropped, recorder.unflushed(1)]).toEqual([0, 0, 1]);
    down = false;
    await recorder.flushAll();
    expect(stored.map((v) => v.link_id)).toEqual([1, 2]);
    expect(recorder.written).toBe(2);
  });

  it('keeps the rest when the database goes down while writing one at a time', async () => {
    let writes = 0;
    const { recorder, stored } = setup(() => {
      writes += 1;
      if (writes === 1) return pgError('23505'); // the batch: a data error
      if (writes === 2) return null; // link 1 alone: written
      if (writes === 3) return pgError('08006'); // then the connection is lost
      return null;
    });
    [1, 2, 3].forEach((id) => recorder.record(raw(id)));
    await recorder.flush();
    expect(stored.map((v) => v.link_id)).toEqual([1]);
    expect(recorder.dropped).toBe(0);
    await recorder.flushAll();
    expect(stored.map((v) => v.link_id)).toEqual([1, 2, 3]);
  });

  it('drops the oldest visits past its bound, counts them, and logs once per ten seconds', async () => {
    // Nothing is flushed until flushAll (no timer in this test): the buffer only grows.
    const { recorder, stored } = setup(() => null);
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    try {
      recorder.maxBuffered = 3;
      [1, 2, 3, 4, 5, 6].forEach((id) => recorder.record(raw(id)));
      const lines = logged.mock.calls.map((call) => call[0] as string);
      expect(lines).toEqual([
        'The visit buffer is full (3 visits): the database is not accepting writes or not keeping up; 1 oldest visits dropped since the last report, 1 in all',
      ]);
      expect([recorder.counted, recorder.overflowed, recorder.unflushed(1)]).toEqual([6, 3, 0]);
      await recorder.flushAll();
      expect(stored.map((v) => v.link_id)).toEqual([4, 5, 6]);
      expect([recorder.written, recorder.dropped, recorder.unflushed(6)]).toEqual([3, 0, 0]);
    } finally {
      logged.mockRestore();
    }
  });

  it('hands over at most 20,000 visits at once, in order, and puts back what was not written', async () => {
    const handed: number[] = [];
    const seen: RawVisit[] = [];
    const sink: VisitSink = {
      write: (batch: VisitBatch): Promise<BatchOutcome> => {
        handed.push(batch.length);
        // The first full handover stops after 2,500 visits: the rest go back to the front.
        const done = handed.length === 2 ? 2500 : batch.length;
        const released = new Map<number, number>();
        for (let i = 0; i < done; i += 1) {
          const visit = batch.visit(i);
          seen.push(visit);
          released.set(visit.linkId, (released.get(visit.linkId) ?? 0) + 1);
        }
        return Promise.resolve({
          done,
          written: done,
          dropped: 0,
          released: [...released],
          limitedLinks: [],
          limitsReached: 0,
        });
      },
      close: () => Promise.resolve(),
    };
    const recorder = new VisitRecorder(sink, new EventEmitter2(), new OutboxWaker());
    const linkIds = Array.from({ length: 25_001 }, (_, n) => 1 + (n % 7));
    // Recorded one by one with nothing flushing in between (no timer here, and no await).
    // The first 2,000 are handed over at once; the next handover waits for that one.
    linkIds.forEach((id, n) => recorder.record(raw(id, `n=${n}`)));
    expect(recorder.unflushed(1)).toBe(3572);
    await recorder.flushAll();
    // Then 20,000; the 17,500 put back and the next 2,000 (not the last 1,001: over 20,000).
    expect(handed).toEqual([2000, 20_000, 19_500, 1001]);
    expect(seen).toEqual(linkIds.map((id, n) => raw(id, `n=${n}`)));
    expect([recorder.counted, recorder.written, recorder.unflushed(1)]).toEqual([
      25_001, 25_001, 0,
    ]);
  });
});
