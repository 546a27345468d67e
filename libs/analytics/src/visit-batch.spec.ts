import { MessageChannel, type MessagePort } from 'node:worker_threads';
import fc from 'fast-check';
import { BOT, HEAD_REQUEST, type RawVisit, VISITOR } from './raw-visit';
import { VisitBatch, type VisitBatchData } from './visit-batch';

const AT = Date.UTC(2026, 10, 26, 12);

function visit(linkId: number, extra: Partial<RawVisit> = {}): RawVisit {
  return {
    linkId,
    at: AT + linkId,
    ip: '203.0.113.9',
    userAgent: 'Mozilla/5.0',
    referer: undefined,
    acceptLanguage: undefined,
    query: null,
    kind: 0,
    qrCodeId: 0,
    ...extra,
  };
}

function visitsOf(batch: VisitBatch): RawVisit[] {
  return Array.from({ length: batch.length }, (_, i) => batch.visit(i));
}

/** What the writer thread receives: the data through a real port (structured clone). */
async function throughPort(data: VisitBatchData): Promise<VisitBatchData> {
  const { port1, port2 }: { port1: MessagePort; port2: MessagePort } = new MessageChannel();
  try {
    const received = new Promise<VisitBatchData>((resolve) => port2.once('message', resolve));
    port1.postMessage(data);
    return await received;
  } finally {
    port1.close();
    port2.close();
  }
}

describe(VisitBatch.name, () => {
  it('gives back each visit as it was pushed, keeping each distinct text once', () => {
    const pushed = [
      visit(1, {
        referer: 'https://news.example/a',
        acceptLanguage: 'de-DE',
        query: 'utm_source=x',
      }),
      visit(2, { userAgent: '' }),
      visit(1, { ip: '2001:db8::1', referer: 'https://news.example/a' }),
    ];
    const batch = VisitBatch.of(pushed);
    expect(batch.length).toBe(3);
    expect(batch.full).toBe(true);
    expect(visitsOf(batch)).toEqual(pushed);
    expect(batch.strings).toEqual([
      '203.0.113.9',
      'Mozilla/5.0',
      'https://news.example/a',
      'de-DE',
      'utm_source=x',
      '',
      '2001:db8::1',
    ]);
    // The same text is the same index; a missing one is -1.
    expect([batch.refererRef(0), batch.refererRef(2), batch.refererRef(1)]).toEqual([2, 2, -1]);
    expect([batch.queryRef(0), batch.queryRef(1), batch.languageRef(2)]).toEqual([4, -1, -1]);
  });

  it('takes visits up to its capacity', () => {
    const batch = VisitBatch.withCapacity(2);
    batch.push(visit(1));
    expect([batch.length, batch.full]).toEqual([1, false]);
    batch.push(visit(2));
    expect(batch.full).toBe(true);
    expect(() => batch.push(visit(3))).toThrow('this visit batch takes no more visits');
    expect(() => VisitBatch.of([visit(1)]).push(visit(2))).toThrow('takes no more visits');
  });

  it('drops its oldest visit and returns its link', () => {
    const batch = VisitBatch.of([visit(7), visit(8), visit(9)]);
    expect(batch.dropFirst()).toBe(7);
    expect(visitsOf(batch)).toEqual([visit(8), visit(9)]);
    expect(batch.slice(1)).toMatchObject({ length: 1 });
    expect(visitsOf(batch.slice(1))).toEqual([visit(9)]);
    expect(visitsOf(batch.slice(0, 1))).toEqual([visit(8)]);
    expect([batch.dropFirst(), batch.dropFirst()]).toEqual([8, 9]);
    expect(() => batch.dropFirst()).toThrow('this visit batch is empty');
  });

  it('joins batches into one that lists each string its visits use once', () => {
    const first = VisitBatch.of([visit(1, { ip: '198.51.100.1' }), visit(2, { query: 'a=1' })]);
    first.dropFirst();
    const second = VisitBatch.of([visit(3, { query: 'a=1' }), visit(4, { userAgent: 'curl' })]);
    const joined = VisitBatch.concat([first, second]);
    expect(visitsOf(joined)).toEqual([
      visit(2, { query: 'a=1' }),
      visit(3, { query: 'a=1' }),
      visit(4, { userAgent: 'curl' }),
    ]);
    expect(joined.strings).toEqual(['203.0.113.9', 'Mozilla/5.0', 'a=1', 'curl']);
    expect(joined.slice(2).strings).toEqual(['203.0.113.9', 'curl']);
  });

  it('crosses to another thread as plain arrays and strings, without the dropped visits', async () => {
    const batch = VisitBatch.withCapacity(4);
    [
      visit(1, { referer: 'https://a.example/' }),
      visit(2),
      visit(3, { acceptLanguage: 'fr' }),
    ].forEach((v) => batch.push(v));
    batch.dropFirst();
    const data = await throughPort(batch.toData());
    expect(Array.from(data.linkIds)).toEqual([2, 3]);
    expect(Array.from(data.at)).toEqual([AT + 2, AT + 3]);
    expect(data.texts).toHaveLength(10);
    expect(visitsOf(VisitBatch.fromData(data))).toEqual([
      visit(2),
      visit(3, { acceptLanguage: 'fr' }),
    ]);
  });

  it('agrees with an array of visits under any pushes, drops, slices, joins and handovers', async () => {
    const text = fc.constantFrom('a', 'b', '', 'ü\u{1F300}', '203.0.113.1');
    const rawVisit = fc.record({
      linkId: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
      at: fc.integer({ min: 0, max: 4e12 }),
      ip: text,
      userAgent: text,
      referer: fc.option(text, { nil: undefined }),
      acceptLanguage: fc.option(text, { nil: undefined }),
      query: fc.option(text, { nil: null }),
      kind: fc.constantFrom(VISITOR, BOT, HEAD_REQUEST),
      qrCodeId: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER })),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(rawVisit, { maxLength: 6 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(3), { minLength: 4, maxLength: 4 }),
        fc.nat(8),
        fc.nat(8),
        async (groups, drops, from, to) => {
          const model: RawVisit[][] = [];
          const batches = groups.map((group, g) => {
            const batch = VisitBatch.withCapacity(group.length + 1);
            group.forEach((v) => batch.push(v));
            const kept = [...group];
            for (let d = 0; d < drops[g] && kept.length > 0; d += 1) {
              const dropped = kept.shift() as RawVisit;
              // A bot's visit counts on no link: its link id is not handed back.
              expect(batch.dropFirst()).toBe(dropped.kind === VISITOR ? dropped.linkId : -1);
            }
            model.push(kept);
            expect(visitsOf(batch)).toEqual(kept);
            return batch;
          });
          const all = model.flat();
          const joined = VisitBatch.concat(batches);
          expect(visitsOf(joined)).toEqual(all);
          expect(visitsOf(joined.slice(from, to))).toEqual(all.slice(from, to));
          const received = VisitBatch.fromData(await throughPort(batches[0].toData()));
          expect(visitsOf(received)).toEqual(model[0]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
