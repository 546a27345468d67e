import type { RenderOptions } from './options';

/**
 * A plain code (black squares on white, margin 2, no logo, image or frame) with `overrides`: the
 * starting point of the engine's specs.
 */
export function plainOptions(overrides: Partial<RenderOptions> = {}): RenderOptions {
  return {
    data: 'https://linkdock.test/m',
    ecc: 'M',
    size: 500,
    margin: 2,
    style: 'square',
    innerEyeStyle: 'square',
    outerEyeStyle: 'square',
    foreground: { type: 'color', color: '#000000' },
    eyes: null,
    background: { color: '#ffffff', transparency: 0 },
    logo: null,
    backgroundImage: null,
    foregroundImage: null,
    frame: null,
    ...overrides,
  };
}
