import { Scene } from './layout';
import { RenderOptions } from './options';
import { Prim, Shape } from './shapes';
import { foregroundSvgPaint } from './svg-paint';

const n = (v: number): string => String(Math.round(v * 100) / 100);

export function primPath(p: Prim): string {
  switch (p.kind) {
    case 'circle':
      return `M${n(p.cx - p.r)} ${n(p.cy)}a${n(p.r)} ${n(p.r)} 0 1 0 ${n(2 * p.r)} 0a${n(p.r)} ${n(p.r)} 0 1 0 ${n(-2 * p.r)} 0z`;
    case 'diamond':
      return `M${n(p.cx)} ${n(p.cy - p.r)}L${n(p.cx + p.r)} ${n(p.cy)}L${n(p.cx)} ${n(p.cy + p.r)}L${n(p.cx - p.r)} ${n(p.cy)}z`;
    case 'polygon':
      return `M${p.points.map(([x, y]) => `${n(x)} ${n(y)}`).join('L')}z`;
    case 'rect': {
      const [tl, tr, br, bl] = p.r;
      const { x, y, w, h } = p;
      if (tl + tr + br + bl === 0) {
        return `M${n(x)} ${n(y)}h${n(w)}v${n(h)}h${n(-w)}z`;
      }
      const arc = (r: number, dx: number, dy: number): string =>
        r > 0 ? `a${n(r)} ${n(r)} 0 0 1 ${n(dx)} ${n(dy)}` : '';
      return (
        `M${n(x + tl)} ${n(y)}H${n(x + w - tr)}${arc(tr, tr, tr)}V${n(y + h - br)}${arc(br, -br, br)}` +
        `H${n(x + bl)}${arc(bl, -bl, -bl)}V${n(y + tl)}${arc(tl, tl, -tl)}z`
      );
    }
  }
}

const shapePath = (s: Shape): string => [...s.add, ...s.sub].map(primPath).join('');
const dataUri = (png: Buffer): string => `data:image/png;base64,${png.toString('base64')}`;

/** Images arrive as PNG buffers already sized for their box (see prepareImages). */
export interface SvgImages {
  logo: Buffer | null;
  background: Buffer | null;
  foreground: Buffer | null;
}

/** The SVG document of a scene. Text becomes outlines, images become data URIs: no external reference. */
export function writeSvg(scene: Scene, options: RenderOptions, images: SvgImages): string {
  const { width, height, codeBox: cb, moduleBox: mb } = scene;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" shape-rendering="geometricPrecision">`,
  ];
  const paint = foregroundSvgPaint(options.foreground, mb);
  out.push(`<defs>${paint.defs}</defs>`);
  const frame = options.frame;
  if (scene.frame && frame) {
    // The frame's shapes may overlap, so each is its own path; a mask cuts out the holes.
    const holes = [...scene.frame.sub, scene.backgroundShape].map(primPath).join('');
    const parts = scene.frame.add.map((p) => `<path d="${primPath(p)}"/>`).join('');
    out.push(
      `<mask id="framecut" maskUnits="userSpaceOnUse" x="0" y="0" width="${width}" height="${height}"><rect width="${width}" height="${height}" fill="#fff"/><path fill="#000" d="${holes}"/></mask>`,
      `<g fill="${frame.color}" mask="url(#framecut)">${parts}</g>`,
    );
  }
  const bgOpacity = 1 - options.background.transparency / 100;
  out.push(
    `<path fill="${options.background.color}" fill-opacity="${n(bgOpacity)}" d="${primPath(scene.backgroundShape)}"/>`,
  );
  if (images.background && options.backgroundImage) {
    const o = 1 - options.backgroundImage.transparency / 100;
    out.push(
      `<image x="${n(cb.x)}" y="${n(cb.y)}" width="${n(cb.w)}" height="${n(cb.h)}" opacity="${n(o)}" preserveAspectRatio="none" href="${dataUri(images.background)}"/>`,
    );
  }
  const modules = scene.modules.map(primPath).join('');
  out.push(`<path fill="${paint.fill}" d="${modules}"/>`);
  if (images.foreground && options.foregroundImage) {
    const o = 1 - options.foregroundImage.transparency / 100;
    out.push(
      `<clipPath id="fgclip"><path d="${modules}"/></clipPath>`,
      `<image clip-path="url(#fgclip)" x="${n(mb.x)}" y="${n(mb.y)}" width="${n(mb.w)}" height="${n(mb.h)}" opacity="${n(o)}" preserveAspectRatio="none" href="${dataUri(images.foreground)}"/>`,
    );
  }
  const outerFill = options.eyes?.outer ?? paint.fill;
  const innerFill = options.eyes?.inner ?? paint.fill;
  out.push(
    `<path fill="${outerFill}" fill-rule="evenodd" d="${scene.outerEyes.map(shapePath).join('')}"/>`,
  );
  // Each centre is a union of shapes cut to a clip: one path per shape (their windings differ, so
  // one path of all of them could leave holes where they overlap), grouped under the clip.
  scene.innerEyes.forEach((eye, i) => {
    const parts = eye.add.map((p) => `<path d="${primPath(p)}"/>`).join('');
    if (eye.clip) {
      out.push(
        `<clipPath id="eye${i}"><path d="${primPath(eye.clip)}"/></clipPath>`,
        `<g fill="${innerFill}" clip-path="url(#eye${i})">${parts}</g>`,
      );
    } else {
      out.push(`<g fill="${innerFill}">${parts}</g>`);
    }
  });
  if (images.logo && scene.logoBox) {
    const lb = scene.logoBox;
    out.push(
      `<image x="${n(lb.x)}" y="${n(lb.y)}" width="${n(lb.w)}" height="${n(lb.h)}" preserveAspectRatio="xMidYMid meet" href="${dataUri(images.logo)}"/>`,
    );
  }
  if (scene.frame && frame && scene.frame.textPath) {
    out.push(`<path fill="${frame.textColor}" d="${scene.frame.textPath}"/>`);
  }
  out.push('</svg>');
  return out.join('');
}
