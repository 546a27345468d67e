import type { RawVisit, VisitKind } from './raw-visit';

/** The texts of a visit, in their order in `texts`: each is an index into `strings`, or NO_TEXT. */
const IP = 0;
const USER_AGENT = 1;
const REFERER = 2;
const LANGUAGE = 3;
const QUERY = 4;
const TEXTS = 5;
/** A text the visit did not have (no Referer, no query, ...). */
export const NO_TEXT = -1;

/** A VisitBatch as it crosses to the writer thread (postMessage copies it). */
export interface VisitBatchData {
  linkIds: Float64Array;
  at: Float64Array;
  kinds: Uint8Array;
  qrCodeIds: Float64Array;
  texts: Int32Array;
  strings: string[];
}

/**
 * Counted visits in columns: link ids and times in typed arrays, and each visit's texts (address,
 * user agent, referrer, language, query) as indexes into the batch's list of distinct strings.
 *
 * A visit kept this way is a few numbers, not an object with strings of its own. The recorder
 * holds tens of thousands of them for up to a flush window, and objects that live that long are
 * copied by the garbage collector from generation to generation. Handing a batch to the writer
 * thread copies three arrays and each distinct string once instead of cloning every object, and
 * the writer looks each distinct user agent, address and language up once per batch.
 *
 * A batch is filled by `push` up to its capacity; `dropFirst` removes its oldest visit.
 */
export class VisitBatch {
  /** Float64: exact for any id SQLite's 64-bit integer keys will reach, not only 32-bit ones. */
  private readonly linkIds: Float64Array;
  private readonly times: Float64Array;
  /** VisitKind of each visit. */
  private readonly kinds: Uint8Array;
  /** The QR code each visit's marker named, 0 for none. */
  private readonly qrCodeIds: Float64Array;
  private readonly texts: Int32Array;
  /** The distinct strings the texts point to. */
  readonly strings: string[];
  /** String -> index in `strings`, while the batch is being filled. */
  private index: Map<string, number> | null;
  private start = 0;
  private end = 0;

  private constructor(
    linkIds: Float64Array,
    times: Float64Array,
    kinds: Uint8Array,
    qrCodeIds: Float64Array,
    texts: Int32Array,
    strings: string[],
    filling: boolean,
  ) {
    this.linkIds = linkIds;
    this.times = times;
    this.kinds = kinds;
    this.qrCodeIds = qrCodeIds;
    this.texts = texts;
    this.strings = strings;
    this.index = filling ? new Map() : null;
    this.end = filling ? 0 : linkIds.length;
  }

  /** An empty batch that `push` fills with up to `capacity` visits. */
  static withCapacity(capacity: number): VisitBatch {
    return new VisitBatch(
      new Float64Array(capacity),
      new Float64Array(capacity),
      new Uint8Array(capacity),
      new Float64Array(capacity),
      new Int32Array(capacity * TEXTS),
      [],
      true,
    );
  }

  static of(visits: readonly RawVisit[]): VisitBatch {
    const batch = VisitBatch.withCapacity(visits.length);
    for (const visit of visits) batch.push(visit);
    return batch;
  }

  /** A batch the thread received (it is complete: nothing is pushed onto it). */
  static fromData(data: VisitBatchData): VisitBatch {
    return new VisitBatch(
      data.linkIds,
      data.at,
      data.kinds,
      data.qrCodeIds,
      data.texts,
      data.strings,
      false,
    );
  }

  /** The batches' visits, in order, in one batch that lists each string they use once. */
  static concat(batches: readonly VisitBatch[]): VisitBatch {
    const length = batches.reduce((sum, b) => sum + b.length, 0);
    const linkIds = new Float64Array(length);
    const times = new Float64Array(length);
    const kinds = new Uint8Array(length);
    const qrCodeIds = new Float64Array(length);
    const texts = new Int32Array(length * TEXTS);
    const strings: string[] = [];
    const index = new Map<string, number>();
    let at = 0;
    for (const batch of batches) {
      // Index in `batch.strings` -> index in `strings`, for the strings this batch uses.
      const moved = new Int32Array(batch.strings.length).fill(NO_TEXT);
      linkIds.set(batch.linkIds.subarray(batch.start, batch.end), at);
      times.set(batch.times.subarray(batch.start, batch.end), at);
      kinds.set(batch.kinds.subarray(batch.start, batch.end), at);
      qrCodeIds.set(batch.qrCodeIds.subarray(batch.start, batch.end), at);
      for (let i = batch.start * TEXTS; i < batch.end * TEXTS; i += 1) {
        const old = batch.texts[i];
        if (old !== NO_TEXT && moved[old] === NO_TEXT) {
          const text = batch.strings[old];
          let ref = index.get(text);
          if (ref === undefined) {
            ref = strings.length;
            strings.push(text);
            index.set(text, ref);
          }
          moved[old] = ref;
        }
        texts[(at - batch.start) * TEXTS + i] = old === NO_TEXT ? NO_TEXT : moved[old];
      }
      at += batch.length;
    }
    return new VisitBatch(linkIds, times, kinds, qrCodeIds, texts, strings, false);
  }

  get length(): number {
    return this.end - this.start;
  }

  /** Whether `push` has no room left. */
  get full(): boolean {
    return this.end === this.linkIds.length;
  }

  push(visit: RawVisit): void {
    if (this.full || this.index === null) {
      throw new Error('this visit batch takes no more visits');
    }
    const at = this.end;
    this.linkIds[at] = visit.linkId;
    this.times[at] = visit.at;
    this.kinds[at] = visit.kind;
    this.qrCodeIds[at] = visit.qrCodeId;
    const t = at * TEXTS;
    this.texts[t + IP] = this.intern(visit.ip);
    this.texts[t + USER_AGENT] = this.intern(visit.userAgent);
    this.texts[t + REFERER] = this.intern(visit.referer);
    this.texts[t + LANGUAGE] = this.intern(visit.acceptLanguage);
    this.texts[t + QUERY] = this.intern(visit.query);
    this.end = at + 1;
    if (this.full) this.index = null;
  }

  /**
   * Removes the oldest visit and returns its link id, or -1 when it was a bot's (which counts on
   * no link's clicks).
   */
  dropFirst(): number {
    if (this.length === 0) {
      throw new Error('this visit batch is empty');
    }
    this.start += 1;
    return this.kinds[this.start - 1] === 0 ? this.linkIds[this.start - 1] : -1;
  }

  linkId(i: number): number {
    return this.linkIds[this.start + i];
  }

  at(i: number): number {
    return this.times[this.start + i];
  }

  kind(i: number): VisitKind {
    return this.kinds[this.start + i] as VisitKind;
  }

  /** The QR code the i-th visit's marker named, 0 for none. */
  qrCodeId(i: number): number {
    return this.qrCodeIds[this.start + i];
  }

  /** Index of the visit's address in `strings`. */
  ipRef(i: number): number {
    return this.texts[(this.start + i) * TEXTS + IP];
  }

  /** Index of the visit's user agent in `strings`. */
  userAgentRef(i: number): number {
    return this.texts[(this.start + i) * TEXTS + USER_AGENT];
  }

  /** Index of the visit's Referer in `strings`, or -1 when it had none. */
  refererRef(i: number): number {
    return this.texts[(this.start + i) * TEXTS + REFERER];
  }

  /** Index of the visit's Accept-Language in `strings`, or -1 when it had none. */
  languageRef(i: number): number {
    return this.texts[(this.start + i) * TEXTS + LANGUAGE];
  }

  /** Index of the visit's query string in `strings`, or -1 when it had none. */
  queryRef(i: number): number {
    return this.texts[(this.start + i) * TEXTS + QUERY];
  }

  /** The i-th visit, as it was pushed. */
  visit(i: number): RawVisit {
    const text = (ref: number): string | undefined =>
      ref === NO_TEXT ? undefined : this.strings[ref];
    return {
      linkId: this.linkId(i),
      at: this.at(i),
      ip: this.strings[this.ipRef(i)],
      userAgent: this.strings[this.userAgentRef(i)],
      referer: text(this.refererRef(i)),
      acceptLanguage: text(this.languageRef(i)),
      query: text(this.queryRef(i)) ?? null,
      kind: this.kind(i),
      qrCodeId: this.qrCodeId(i),
    };
  }

  /**
   * Visits `from` to `to` (exclusive) in a batch of their own that lists only the strings they
   * use (the writer sizes its lookups by the list).
   */
  slice(from: number, to: number = this.length): VisitBatch {
    const view = new VisitBatch(
      this.linkIds,
      this.times,
      this.kinds,
      this.qrCodeIds,
      this.texts,
      this.strings,
      false,
    );
    view.start = this.start + Math.max(0, Math.min(from, this.length));
    view.end = Math.max(view.start, this.start + Math.max(0, Math.min(to, this.length)));
    return VisitBatch.concat([view]);
  }

  /** What postMessage copies to the writer thread: only the visits' part of each array. */
  toData(): VisitBatchData {
    const whole = this.start === 0 && this.end === this.linkIds.length;
    return {
      linkIds: whole ? this.linkIds : this.linkIds.slice(this.start, this.end),
      at: whole ? this.times : this.times.slice(this.start, this.end),
      kinds: whole ? this.kinds : this.kinds.slice(this.start, this.end),
      qrCodeIds: whole ? this.qrCodeIds : this.qrCodeIds.slice(this.start, this.end),
      texts: whole ? this.texts : this.texts.slice(this.start * TEXTS, this.end * TEXTS),
      strings: this.strings,
    };
  }

  private intern(text: string | null | undefined): number {
    if (text === undefined || text === null) {
      return NO_TEXT;
    }
    const index = this.index as Map<string, number>;
    let ref = index.get(text);
    if (ref === undefined) {
      ref = this.strings.length;
      this.strings.push(text);
      index.set(text, ref);
    }
    return ref;
  }
}
