/** The part of bidi-js (UAX #9, the Unicode bidirectional algorithm) that shaping.ts uses. */
declare module 'bidi-js' {
  interface EmbeddingLevels {
    /** The resolved level of each UTF-16 code unit: odd is right-to-left. */
    levels: Uint8Array;
    paragraphs: Array<{ start: number; end: number; level: number }>;
  }
  interface Bidi {
    getEmbeddingLevels(text: string, direction?: 'ltr' | 'rtl' | 'auto'): EmbeddingLevels;
  }
  export default function bidiFactory(): Bidi;
}
