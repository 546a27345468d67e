import dns2 from 'dns2';

/** What the test server answers for a name: TXT values, NXDOMAIN, or nothing at all (a timeout). */
export type TestDnsAnswer = string[] | 'nxdomain' | 'silent';

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, ready for DNS_SERVERS. */
  address: string;
  /** Lower-case names to answers; any other name is NXDOMAIN. */
  records: Map<string, TestDnsAnswer>;
  /** Names asked, in order. */
  asked: string[];
  close(): Promise<void>;
}

/** A real DNS server on 127.0.0.1 and a random UDP port that answers TXT queries from `records`. */
export async function startTestDnsServer(): Promise<TestDnsServer> {
  const { Packet } = dns2;
  const records = new Map<string, TestDnsAnswer>();
  const asked: string[] = [];
  const server = dns2.createUDPServer((request, send) => {
    const response = Packet.createResponseFromRequest(request);
    const question = request.questions[0];
    const name = question?.name.toLowerCase() ?? '';
    asked.push(name);
    const answer = records.get(name) ?? 'nxdomain';
    if (answer === 'silent') {
      return;
    }
    if (answer === 'nxdomain') {
      response.header.rcode = Packet.RCODE.NXDOMAIN;
    } else if (question?.type === Packet.TYPE.TXT) {
      for (const data of answer) {
        response.answers.push({
          name: question.name,
          type: Packet.TYPE.TXT,
          class: Packet.CLASS.IN,
          ttl: 1,
          // A TXT record is a list of character-strings of at most 255 octets each.
          data: data.match(/[\s\S]{1,255}/g) ?? [''],
        } as dns2.Packet.Resource);
      }
    }
    void send(response);
  });
  await server.listen(0, '127.0.0.1');
  const { port } = server.address();
  return {
    address: `127.0.0.1:${port}`,
    records,
    asked,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
