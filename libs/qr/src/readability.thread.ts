import { parentPort } from 'node:worker_threads';
import { isReadable } from './readability';
import type { ReadabilityReply, ReadabilityRequest } from './readability-thread';

/**
 * The readability thread (started by ReadabilityThread): both decoders on a rendered code and its
 * turned, slanted, blurred and downscaled copies, one check at a time.
 */
if (parentPort) {
  const port = parentPort;
  let queue = Promise.resolve();
  port.on('message', (request: ReadabilityRequest) => {
    queue = queue.then(async () => {
      const { id, width, height, data, expected, modulePixels } = request;
      let reply: ReadabilityReply;
      try {
        reply = { id, readable: await isReadable({ data, width, height }, expected, modulePixels) };
      } catch (error) {
        reply = { id, error: String(error) };
      }
      port.postMessage(reply);
    });
  });
}
