import { HostPacer, interleaveByHost, isFailureStatus, nextHealth } from './destination-checks';

describe(isFailureStatus.name, () => {
  it.each([
    [200, false],
    [204, false],
    [301, false],
    [304, false],
    [400, true],
    [401, false],
    [403, false],
    [404, true],
    [405, false],
    [410, true],
    [429, false],
    [451, true],
    [500, true],
    [503, true],
  ])('%i is a failure: %s', (status, failed) => {
    expect(isFailureStatus(status)).toBe(failed);
  });
});

describe(nextHealth.name, () => {
  const fail = { statusCode: 500, failed: true };
  const ok = { statusCode: 200, failed: false };

  it('breaks on the third failure in a row, once', () => {
    let state = { status: 'unknown', failures: 0 };
    const events: Array<string | null> = [];
    for (let i = 0; i < 4; i += 1) {
      const next = nextHealth(state, fail);
      events.push(next.event);
      state = next;
    }
    expect(state).toEqual({ status: 'broken', failures: 4, event: null });
    expect(events).toEqual([null, null, 'link.destination_broken', null]);
  });

  it('an ok link stays ok through two failures; a success resets the count', () => {
    const one = nextHealth({ status: 'ok', failures: 0 }, fail);
    expect(one).toEqual({ status: 'ok', failures: 1, event: null });
    expect(nextHealth({ status: 'ok', failures: 2 }, ok)).toEqual({
      status: 'ok',
      failures: 0,
      event: null,
    });
  });

  it('a success of a broken link recovers it', () => {
    expect(nextHealth({ status: 'broken', failures: 5 }, ok)).toEqual({
      status: 'ok',
      failures: 0,
      event: 'link.destination_recovered',
    });
  });

  it('a failure with no answer (timeout, DNS, refused address) counts the same', () => {
    expect(nextHealth({ status: 'ok', failures: 2 }, { statusCode: null, failed: true })).toEqual({
      status: 'broken',
      failures: 3,
      event: 'link.destination_broken',
    });
  });
});

describe(HostPacer.name, () => {
  it('spaces the starts of one host a second apart, other hosts not at all', () => {
    const pacer = new HostPacer(1000);
    expect(pacer.reserve('a.example', 10_000)).toBe(0);
    expect(pacer.reserve('a.example', 10_000)).toBe(1000);
    expect(pacer.reserve('a.example', 10_200)).toBe(1800);
    expect(pacer.reserve('b.example', 10_200)).toBe(0);
    // Long after, no wait.
    expect(pacer.reserve('a.example', 20_000)).toBe(0);
  });
});

describe(interleaveByHost.name, () => {
  it('alternates hosts, keeping each host in order', () => {
    const items = ['a1', 'a2', 'a3', 'b1', 'c1', 'b2'];
    expect(interleaveByHost(items, (i) => i[0])).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });
});
