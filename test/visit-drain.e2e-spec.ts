import { VisitRecorder } from '@app/analytics';
import { closeAfterAll, createTestApp } from '@app/testing';
import { ServerDrain } from '../apps/api/src/visitor/server-drain';

describe('Shutdown', () => {
  const opened = closeAfterAll();

  it('stops the HTTP server before the visit recorder writes out what it holds', async () => {
    const t = opened.add(await createTestApp());
    // Listening, as in production, so that the drain has a server to stop.
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const order: string[] = [];
    const drain = t.app.get(ServerDrain);
    const stopServer = drain.beforeApplicationShutdown.bind(drain);
    jest.spyOn(drain, 'beforeApplicationShutdown').mockImplementation(async () => {
      order.push('server: closing');
      await stopServer();
      order.push(`server: closed (listening: ${server.listening})`);
    });
    const recorder = t.app.get(VisitRecorder);
    const writeOut = recorder.beforeApplicationShutdown.bind(recorder);
    jest.spyOn(recorder, 'beforeApplicationShutdown').mockImplementation(async () => {
      order.push('visits: writing');
      await writeOut();
    });

    await t.close();
    expect(order).toEqual([
      'server: closing',
      'server: closed (listening: false)',
      'visits: writing',
    ]);
  });
});
