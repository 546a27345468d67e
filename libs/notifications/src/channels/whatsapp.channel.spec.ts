import type { NotificationMessage } from '../notification-message';
import { whatsappMessage } from './whatsapp.channel';

const message: NotificationMessage = {
  event: 'link.created',
  title: 'Link created',
  text: 'https://l.example/sale was created.\nhttps://l.example/sale',
  data: {},
};
const delivery = {
  id: 'msg_1',
  envelope: { id: 'evt_1', event: 'link.created', created_at: '', owner_id: 1, data: {} },
};

describe('whatsappMessage', () => {
  it('sends an event as the configured template, title and text as its body parameters', () => {
    expect(
      whatsappMessage(
        '+15551234567',
        { ...message, delivery },
        { name: 'linkdock_event', language: 'en_US' },
      ),
    ).toEqual({
      messaging_product: 'whatsapp',
      to: '15551234567',
      type: 'template',
      template: {
        name: 'linkdock_event',
        language: { code: 'en_US' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Link created' },
              // Template parameters may not contain new lines.
              { type: 'text', text: 'https://l.example/sale was created. https://l.example/sale' },
            ],
          },
        ],
      },
    });
  });

  it('sends text for a test message, or when no template is configured', () => {
    const text = {
      messaging_product: 'whatsapp',
      to: '15551234567',
      type: 'text',
      text: { preview_url: false, body: `Link created\n${message.text}` },
    };
    expect(whatsappMessage('+15551234567', message, { name: 't', language: 'en' })).toEqual(text);
    expect(whatsappMessage('+15551234567', { ...message, delivery }, null)).toEqual(text);
  });
});
