import { readFileSync } from 'node:fs';

/**
 * HarfBuzz, the shaping engine of Chrome, Firefox, Android and LibreOffice, from harfbuzzjs's
 * WebAssembly build (harfbuzz.wasm), called directly. harfbuzzjs's own wrapper is an ES module
 * that awaits the wasm at the top level, which neither this CommonJS build nor Jest can require;
 * the shaping calls it wraps are a handful of C functions, bound here. Fonts and buffers live in
 * the wasm memory; fonts stay for the process (a few per script, cached by fonts.ts).
 */
interface HbExports {
  memory: WebAssembly.Memory;
  __wasm_call_ctors(): void;
  malloc(size: number): number;
  free(ptr: number): void;
  hb_blob_create(data: number, length: number, mode: number, user: number, destroy: number): number;
  hb_face_create(blob: number, index: number): number;
  hb_font_create(face: number): number;
  hb_buffer_create(): number;
  hb_buffer_destroy(buffer: number): void;
  hb_buffer_add_utf16(
    buffer: number,
    text: number,
    length: number,
    offset: number,
    n: number,
  ): void;
  hb_buffer_set_direction(buffer: number, direction: number): void;
  hb_buffer_set_script(buffer: number, script: number): void;
  hb_buffer_guess_segment_properties(buffer: number): void;
  hb_shape(font: number, buffer: number, features: number, count: number): void;
  hb_buffer_get_length(buffer: number): number;
  hb_buffer_get_glyph_infos(buffer: number, length: number): number;
  hb_buffer_get_glyph_positions(buffer: number, length: number): number;
}

let hb: HbExports | null = null;

function harfbuzz(): HbExports {
  if (hb) {
    return hb;
  }
  const wasm = new WebAssembly.Module(
    readFileSync(require.resolve('harfbuzzjs/dist/harfbuzz.wasm')),
  );
  let memory: WebAssembly.Memory | null = null;
  const fail = (what: string) => (): never => {
    throw new Error(`HarfBuzz: ${what}`);
  };
  const instance = new WebAssembly.Instance(wasm, {
    env: {
      _abort_js: fail('abort'),
      _emscripten_runtime_keepalive_clear: () => undefined,
      _setitimer_js: () => 0,
      emscripten_resize_heap: (requested: number): number => {
        const have = (memory as WebAssembly.Memory).buffer.byteLength;
        const need = requested >>> 0;
        try {
          (memory as WebAssembly.Memory).grow(
            Math.ceil((Math.max(need, have * 1.25) - have) / 65536),
          );
          return 1;
        } catch {
          return 0;
        }
      },
    },
    wasi_snapshot_preview1: { proc_exit: fail('exit') },
  });
  const exports = instance.exports as unknown as HbExports;
  memory = exports.memory;
  exports.__wasm_call_ctors();
  hb = exports;
  return exports;
}

/** hb_tag_t of a four-letter tag (an ISO 15924 script code is its hb_script_t). */
const tag = (s: string): number =>
  ((s.charCodeAt(0) << 24) | (s.charCodeAt(1) << 16) | (s.charCodeAt(2) << 8) | s.charCodeAt(3)) >>>
  0;

/** A HarfBuzz font of an sfnt (TrueType/OpenType) file, at its units-per-em scale. */
export function hbFont(sfnt: Uint8Array): number {
  const h = harfbuzz();
  const ptr = h.malloc(sfnt.length);
  new Uint8Array(h.memory.buffer, ptr, sfnt.length).set(sfnt);
  // HB_MEMORY_MODE_READONLY: the bytes stay where they are for the life of the process.
  const blob = h.hb_blob_create(ptr, sfnt.length, 1, 0, 0);
  return h.hb_font_create(h.hb_face_create(blob, 0));
}

/** One shaped glyph, in font units; `cluster` is the UTF-16 index of its first character. */
export interface HbGlyph {
  gid: number;
  cluster: number;
  xAdvance: number;
  xOffset: number;
  yOffset: number;
}

/**
 * hb_shape of `text` (or of `length` UTF-16 units from `offset`) in `font`, in visual order (a right-to-left run comes out reversed, as
 * HarfBuzz gives it). `script` is an ISO 15924 code; the language is guessed.
 */
export function hbShape(
  font: number,
  text: string,
  rtl: boolean,
  script: string | null,
  offset = 0,
  length = text.length,
): HbGlyph[] {
  const h = harfbuzz();
  const buffer = h.hb_buffer_create();
  try {
    const ptr = h.malloc(text.length * 2 + 2);
    const units = new Uint16Array(h.memory.buffer, ptr, text.length);
    for (let i = 0; i < text.length; i++) {
      units[i] = text.charCodeAt(i);
    }
    // The item is text[offset, offset + length); the rest is context (Arabic joining).
    h.hb_buffer_add_utf16(buffer, ptr, text.length, offset, length);
    h.free(ptr);
    // HB_DIRECTION_LTR is 4, RTL 5.
    h.hb_buffer_set_direction(buffer, rtl ? 5 : 4);
    if (script) {
      h.hb_buffer_set_script(buffer, tag(script));
    }
    h.hb_buffer_guess_segment_properties(buffer);
    h.hb_shape(font, buffer, 0, 0);
    const n = h.hb_buffer_get_length(buffer);
    // hb_glyph_info_t and hb_glyph_position_t are five 32-bit words each.
    const info = new Uint32Array(h.memory.buffer, h.hb_buffer_get_glyph_infos(buffer, 0), n * 5);
    const pos = new Int32Array(h.memory.buffer, h.hb_buffer_get_glyph_positions(buffer, 0), n * 5);
    return Array.from({ length: n }, (_, i) => ({
      gid: info[i * 5],
      cluster: info[i * 5 + 2],
      xAdvance: pos[i * 5],
      xOffset: pos[i * 5 + 2],
      yOffset: pos[i * 5 + 3],
    }));
  } finally {
    h.hb_buffer_destroy(buffer);
  }
}
