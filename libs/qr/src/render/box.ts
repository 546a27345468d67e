/** A rectangle in pixels: the code, its modules, the logo, a frame's parts. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}
