import type * as ZBarWasm from '@undecaf/zbar-wasm' with { 'resolution-mode': 'import' };

// The package's types are declared for its ES module; its CommonJS build (dist/main.cjs) is the
// same API, which this CommonJS code requires.
const { scanRGBABuffer, ZBarConfigType, ZBarScanner, ZBarSymbolType } =
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('@undecaf/zbar-wasm') as typeof ZBarWasm;
type ZBarScanner = ZBarWasm.ZBarScanner;

/**
 * ZBar (the C library inside many Android and Linux scanners and point-of-sale readers), built to
 * WebAssembly by @undecaf/zbar-wasm, whose Node build loads zbar.wasm from its own package. A new
 * scanner for each image: one scanner kept across images answered differently for the same image
 * depending on what it had scanned before (true circle eyes at 500–1000 px read or not by turns);
 * a new one answers the same every time. Set to QR codes alone: ZBar otherwise also looks for a
 * dozen linear symbologies in every image.
 */
async function qrScanner(): Promise<ZBarScanner> {
  const s = await ZBarScanner.create();
  s.setConfig(ZBarSymbolType.ZBAR_NONE, ZBarConfigType.ZBAR_CFG_ENABLE, 0);
  s.setConfig(ZBarSymbolType.ZBAR_QRCODE, ZBarConfigType.ZBAR_CFG_ENABLE, 1);
  return s;
}

/** The text of the first QR code ZBar finds in the RGBA pixels, or null. */
export async function zbarRead(img: {
  data: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
}): Promise<string | null> {
  const { data, width, height } = img;
  // zbar-wasm copies the pixels into its own memory; it wants an ArrayBuffer of exactly them.
  const buffer =
    data.byteOffset === 0 && data.byteLength === data.buffer.byteLength
      ? (data.buffer as ArrayBuffer)
      : data.slice().buffer;
  const scanner = await qrScanner();
  try {
    const found = await scanRGBABuffer(buffer, width, height, scanner);
    const qr = found.find((sym) => sym.type === ZBarSymbolType.ZBAR_QRCODE);
    return qr ? qr.decode() : null;
  } finally {
    scanner.destroy();
  }
}
