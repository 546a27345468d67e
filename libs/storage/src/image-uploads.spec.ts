import sharp from 'sharp';
import { ImageIntake, ImageQueue } from '@app/common';
import { ImageUploads } from './image-uploads';
import type { ObjectStore } from './object-store';

describe(ImageUploads.name, () => {
  const put = jest.fn<Promise<void>, [string, Buffer, { contentType: string }]>();
  const del = jest.fn<Promise<void>, [string[]]>();
  const objects = {
    put: (...args: [string, Buffer, { contentType: string }]) => put(...args),
    delete: (keys: string[]) => del(keys),
  } as unknown as ObjectStore;
  const uploads = new ImageUploads(
    objects,
    new ImageIntake(new ImageQueue(1, 32)),
    'https://cdn.example',
    'uploads/kind',
    { accepted: new Set(['png']), described: 'a PNG image' },
  );

  beforeEach(() => {
    put.mockReset().mockResolvedValue();
    del.mockReset().mockResolvedValue();
  });

  it('links a stored name from the public base and its prefix', () => {
    expect(uploads.url('a.png')).toBe('https://cdn.example/uploads/kind/a.png');
    expect(uploads.url(null)).toBeNull();
  });

  it('re-encodes an upload as a PNG no larger than the side and stores it under a new name', async () => {
    const png = await sharp({
      create: { width: 300, height: 100, channels: 3, background: '#336699' },
    })
      .png()
      .toBuffer();
    const first = await uploads.store('avatar', png, 60);
    const second = await uploads.store('avatar', png, 60);
    expect(first).toMatch(/^[0-9a-f]{40}\.png$/);
    expect(second).not.toBe(first);
    const [key, stored, options] = put.mock.calls[0];
    expect(key).toBe(`uploads/kind/${first}`);
    expect(options).toEqual({ contentType: 'image/png' });
    expect(await sharp(stored).metadata()).toMatchObject({ format: 'png', width: 60, height: 20 });
  });

  it('writes an SVG with its content type', async () => {
    const name = await uploads.write('<svg/>', 'svg');
    expect(name).toMatch(/^[0-9a-f]{40}\.svg$/);
    expect(put).toHaveBeenCalledWith(`uploads/kind/${name}`, Buffer.from('<svg/>'), {
      contentType: 'image/svg+xml',
    });
  });

  it('deletes only names it could have made, and nothing when none is left', async () => {
    const name = `${'a'.repeat(40)}.png`;
    await uploads.remove([name, null, undefined, '../secret.png', 'x.png']);
    expect(del).toHaveBeenCalledWith([`uploads/kind/${name}`]);
    del.mockClear();
    await uploads.remove([null]);
    expect(del).not.toHaveBeenCalled();
  });
});
