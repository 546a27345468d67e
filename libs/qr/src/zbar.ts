import type * as ZBarWasm from '@undecaf/zbar-wasm' with { 'resolution-mode': 'import' };

// The package's types are declared for its ES module; its CommonJS build (dist/main.cjs) is the
// same API, which this CommonJS code requires.
const { scanRGBABuffer, ZBarConfigType, ZBarScanner, ZBarSymbolType } =
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('@undecaf/zbar-wasm') as typeof ZBarWasm;
type ZBarScanner = ZBarWasm.ZBarScanner;

let scanner: Promise<ZBarScanner> | null = null;

/**
 * ZBar (the C library inside many Android and Linux scanners and point-of-sale readers), built to
 * WebAssembly by @undecaf/zbar-wasm, whose Node build loads zbar.wasm from its own package. One
 * scanner per thread, set to QR codes alone: ZBar otherwise also looks for a dozen linear
 * symbologies in every image.
 */
function qrScanner(): Promise<ZBarScanner> {
  scanner ??= (async () => {
    const s = await ZBarScanner.create();
    s.setConfig(ZBarSymbolType.ZBAR_NONE, ZBarConfigType.ZBAR_CFG_ENABLE, 0);
    s.setConfig(ZBarSymbolType.ZBAR_QRCODE, ZBarConfigType.ZBAR_CFG_ENABLE, 1);
    return s;
  })();
  return scanner;
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
  const found = await scanRGBABuffer(buffer, width, height, await qrScanner());
  const qr = found.find((s) => s.type === ZBarSymbolType.ZBAR_QRCODE);
  return qr ? qr.decode() : null;
}
