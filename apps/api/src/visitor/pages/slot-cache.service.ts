import { Injectable } from '@nestjs/common';
import { DataRepository } from '@app/database';
import { type AppointmentHours, freeSlots, type Slot, type SlotWindow } from './appointment-slots';
import type { VisitorBlock } from './bio-page';

/** How long a block's bookings are trusted without a booking here (other instances, deletions). */
export const SLOT_CACHE_MS = 60_000;
/** Blocks kept, and windows (`slots_from` values) kept per block: the cache's bound. */
export const SLOT_CACHE_BLOCKS = 1000;
const WINDOWS_PER_BLOCK = 16;

interface Entry {
  /** What the slots were computed from: the block as compiled (a new object after every edit). */
  settings: Record<string, unknown>;
  updatedMs: number;
  expiresMs: number;
  booked: Promise<ReadonlySet<number>>;
  windows: Map<string, SlotWindow>;
}

/**
 * The free slots of appointment blocks, cached in this process per block: an entry holds for the
 * block as last edited (its settings and updated datetime) until a booking through this process
 * drops it, or for SLOT_CACHE_MS at most. A view then costs a lookup, not a query and a calendar.
 */
@Injectable()
export class SlotCache {
  private readonly entries = new Map<number, Entry>();

  constructor(private readonly data: DataRepository) {}

  /** The slots a page shows for a block: from `fromMs` (null: now), at most `limit`. */
  async window(
    block: VisitorBlock,
    nowMs: number,
    fromMs: number | null,
    limit: number,
  ): Promise<SlotWindow> {
    const entry = this.entryOf(block, nowMs);
    const booked = await entry.booked;
    const key = `${fromMs ?? ''}:${limit}`;
    let found = entry.windows.get(key);
    if (found === undefined) {
      // A page computes its blocks one at a time, other requests (health checks) in between.
      await new Promise((resolve) => setImmediate(resolve));
      found = entry.windows.get(key) ?? freeSlots(hoursOf(block), nowMs, booked, fromMs, limit);
      if (entry.windows.size >= WINDOWS_PER_BLOCK) {
        entry.windows.delete(entry.windows.keys().next().value as string);
      }
      entry.windows.set(key, found);
    }
    // Computed up to SLOT_CACHE_MS ago: the slots that have since come too close go.
    const earliest = nowMs + hoursOf(block).min_notice_minutes * 60_000;
    return found.slots.length > 0 && found.slots[0].startMs < earliest
      ? { slots: found.slots.filter((s) => s.startMs >= earliest), next: found.next }
      : found;
  }

  /** The slot starting at `startMs` when it is free and offered now, else null. */
  async free(block: VisitorBlock, nowMs: number, startMs: number): Promise<Slot | null> {
    const booked = await this.entryOf(block, nowMs).booked;
    const [first] = freeSlots(hoursOf(block), nowMs, booked, startMs, 1).slots;
    return first?.startMs === startMs ? first : null;
  }

  /** Reads the bookings of the blocks not cached (or stale) in one query: a page's first view. */
  prefetch(blocks: readonly VisitorBlock[], nowMs: number): void {
    const missing = blocks.filter((b) => !this.isFresh(this.entries.get(b.id), b, nowMs));
    if (missing.length < 2) return;
    const all = this.data.bookedSlotsOf(
      missing.map((b) => b.id),
      new Date(nowMs),
    );
    for (const block of missing) {
      this.add(
        block,
        nowMs,
        all.then((m) => m.get(block.id) ?? new Set<number>()),
      );
    }
  }

  /** A booking was made (or lost its race): the block's slots are computed again. */
  invalidate(blockId: number): void {
    this.entries.delete(blockId);
  }

  private entryOf(block: VisitorBlock, nowMs: number): Entry {
    const cached = this.entries.get(block.id);
    if (cached !== undefined && this.isFresh(cached, block, nowMs)) {
      return cached;
    }
    return this.add(block, nowMs, this.data.bookedSlots(block.id, new Date(nowMs)));
  }

  private isFresh(entry: Entry | undefined, block: VisitorBlock, nowMs: number): boolean {
    return (
      entry !== undefined &&
      entry.settings === block.settings &&
      entry.updatedMs === block.updatedMs &&
      entry.expiresMs > nowMs
    );
  }

  private add(block: VisitorBlock, nowMs: number, booked: Promise<ReadonlySet<number>>): Entry {
    this.entries.delete(block.id);
    if (this.entries.size >= SLOT_CACHE_BLOCKS) {
      this.entries.delete(this.entries.keys().next().value as number);
    }
    const entry: Entry = {
      settings: block.settings,
      updatedMs: block.updatedMs,
      expiresMs: nowMs + SLOT_CACHE_MS,
      booked,
      windows: new Map(),
    };
    // A failed read is not kept: the next view reads again.
    entry.booked.catch(() => {
      if (this.entries.get(block.id) === entry) this.entries.delete(block.id);
    });
    this.entries.set(block.id, entry);
    return entry;
  }
}

function hoursOf(block: VisitorBlock): AppointmentHours {
  return block.settings as unknown as AppointmentHours;
}
