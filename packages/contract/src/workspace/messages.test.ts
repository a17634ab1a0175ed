import { describe, expect, it } from 'vitest';
import { SESSION_SEND_FORMS, sessionSendProblems, type SessionSendValues } from './messages.js';

/** A value for each field a form can name. */
const SAMPLE: Partial<SessionSendValues> = {
  text: 'Hi',
  previewUrl: true,
  mediaUrl: 'https://files.example/a.pdf',
  caption: 'A file',
  filename: 'a.pdf',
  interactive: { kind: 'cta_url', body: 'Track it', displayText: 'Track', url: 'https://shop.example/t' },
  reaction: { msgid: 'wamid.A', emoji: '👍' },
  location: { latitude: 52.37, longitude: 4.89 },
};
type Field = keyof typeof SAMPLE;
const FORM_FIELDS = Object.keys(SAMPLE) as Field[];

/** The SDK's forms (SESSION_SEND_FORMS) and the server's check (sessionSendProblems) must say the same thing. */
describe('chat/message/send forms', () => {
  for (const [type, form] of Object.entries(SESSION_SEND_FORMS)) {
    const allowed: readonly Field[] = [...form.required, ...form.optional];
    const values = (fields: readonly Field[]) =>
      ({
        to: '15550000001',
        type,
        ...Object.fromEntries(fields.map((field) => [field, SAMPLE[field]])),
      }) as SessionSendValues;

    it(`${type}: accepts its form with every field it takes`, () => {
      expect(sessionSendProblems(values(allowed))).toEqual([]);
    });

    it(`${type}: names each required field left out and each field of another form`, () => {
      for (const field of form.required)
        expect(sessionSendProblems(values(allowed.filter((each) => each !== field))).map((p) => p.field)).toEqual([
          field,
        ]);
      for (const field of FORM_FIELDS.filter((each) => !allowed.includes(each)))
        expect(sessionSendProblems(values([...allowed, field])).map((p) => p.field)).toEqual([field]);
    });
  }
});
