import type { DataRepository } from '@app/database';
import type { VisitorBlock } from './bio-page';
import { SLOT_CACHE_BLOCKS, SLOT_CACHE_MS, SlotCache } from './slot-cache.service';

const NOW = Date.parse('2026-11-23T08:00:00Z');
const HOUR = 3600_000;

function calendar(id: number, updatedMs = 0): VisitorBlock {
  return {
    id,
    type: 'appointment_calendar',
    imageUrl: null,
    updatedMs,
    settings: {
      timezone: 'UTC',
      days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
      start_time: '08:00',
      end_time: '12:00',
      duration_value: 1,
      duration_type: 'hours',
      max_days_ahead: 30,
      min_notice_minutes: 0,
    },
  };
}

describe(SlotCache.name, () => {
  let booked: Set<number>;
  let bookedSlots: jest.Mock;
  let bookedSlotsOf: jest.Mock;
  let cache: SlotCache;

  beforeEach(() => {
    booked = new Set();
    bookedSlots = jest.fn(() => Promise.resolve(new Set(booked)));
    bookedSlotsOf = jest.fn((ids: number[]) =>
      Promise.resolve(new Map(ids.map((id) => [id, new Set(booked)]))),
    );
    cache = new SlotCache({ bookedSlots, bookedSlotsOf } as unknown as DataRepository);
  });

  const starts = async (block: VisitorBlock, now = NOW, from: number | null = null) =>
    (await cache.window(block, now, from, 3)).slots.map((s) => s.startMs);

  it('reads the bookings once per block while nothing changes', async () => {
    const block = calendar(1);
    expect(await starts(block)).toEqual([NOW, NOW + HOUR, NOW + 2 * HOUR]);
    expect(await starts(block)).toEqual([NOW, NOW + HOUR, NOW + 2 * HOUR]);
    expect(await starts(block, NOW, NOW + 24 * HOUR)).toEqual([
      NOW + 24 * HOUR,
      NOW + 25 * HOUR,
      NOW + 26 * HOUR,
    ]);
    expect(bookedSlots).toHaveBeenCalledTimes(1);
  });

  it('drops a booked slot once the booking invalidates the block', async () => {
    const block = calendar(1);
    await starts(block);
    booked.add(NOW);
    expect(await starts(block)).toContain(NOW);
    cache.invalidate(1);
    expect(await starts(block)).toEqual([NOW + HOUR, NOW + 2 * HOUR, NOW + 3 * HOUR]);
    expect(await cache.free(block, NOW, NOW)).toBeNull();
    expect((await cache.free(block, NOW, NOW + HOUR))?.startMs).toBe(NOW + HOUR);
    expect(bookedSlots).toHaveBeenCalledTimes(2);
  });

  it('computes again after an edit of the block, and after SLOT_CACHE_MS', async () => {
    await starts(calendar(1, 1000));
    const edited = calendar(1, 2000);
    edited.settings.start_time = '09:00';
    expect(await starts(edited)).toEqual([NOW + HOUR, NOW + 2 * HOUR, NOW + 3 * HOUR]);
    expect(bookedSlots).toHaveBeenCalledTimes(2);
    // The same block compiled again (the page reloaded) in the same second: computed again too.
    await starts(calendar(1, 2000));
    expect(bookedSlots).toHaveBeenCalledTimes(3);
    const later = calendar(1, 2000);
    await starts(later);
    await starts(later, NOW + SLOT_CACHE_MS - 1);
    expect(bookedSlots).toHaveBeenCalledTimes(4);
    booked.add(NOW + 2 * HOUR);
    expect(await starts(later, NOW + SLOT_CACHE_MS)).toEqual([
      NOW + HOUR,
      NOW + 3 * HOUR,
      NOW + 24 * HOUR,
    ]);
  });

  it('leaves out the cached slots that have come too close', async () => {
    const block = calendar(1);
    await starts(block);
    expect(await starts(block, NOW + 1)).toEqual([NOW + HOUR, NOW + 2 * HOUR]);
  });

  it('keeps SLOT_CACHE_BLOCKS blocks at most, dropping the oldest', async () => {
    const blocks = Array.from({ length: SLOT_CACHE_BLOCKS + 1 }, (_, i) => calendar(i + 1));
    for (const block of blocks) {
      await starts(block);
    }
    expect(bookedSlots).toHaveBeenCalledTimes(SLOT_CACHE_BLOCKS + 1);
    await starts(blocks[SLOT_CACHE_BLOCKS]);
    await starts(blocks[1]);
    expect(bookedSlots).toHaveBeenCalledTimes(SLOT_CACHE_BLOCKS + 1);
    // The first block was dropped to make room for the last.
    await starts(blocks[0]);
    expect(bookedSlots).toHaveBeenCalledTimes(SLOT_CACHE_BLOCKS + 2);
  });

  it('reads the bookings of the uncached blocks of a page in one query', async () => {
    booked.add(NOW);
    const blocks = [calendar(1), calendar(2), calendar(3)];
    await starts(blocks[0]);
    cache.prefetch(blocks, NOW);
    expect(bookedSlotsOf).toHaveBeenCalledWith([2, 3], new Date(NOW));
    for (const block of blocks) {
      expect(await starts(block)).toEqual([NOW + HOUR, NOW + 2 * HOUR, NOW + 3 * HOUR]);
    }
    expect(bookedSlots).toHaveBeenCalledTimes(1);
    cache.prefetch(blocks, NOW);
    expect(bookedSlotsOf).toHaveBeenCalledTimes(1);
  });

  it('does not keep a failed read of the bookings', async () => {
    bookedSlots.mockRejectedValueOnce(new Error('database gone'));
    const block = calendar(1);
    await expect(starts(block)).rejects.toThrow('database gone');
    expect(await starts(block)).toHaveLength(3);
  });
});
