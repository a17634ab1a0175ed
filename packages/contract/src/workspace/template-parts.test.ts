import { describe, expect, it } from 'vitest';
import { messageError } from './messages.js';
import { templateDraftProblems } from './template-parts.js';

describe('templateDraftProblems', () => {
  it('accepts a draft that follows Meta’s rules', () => {
    expect(
      templateDraftProblems({
        body: { text: 'Hi {{1}}, order {{2}} shipped.', examples: ['Ada', 'A-1001'] },
        header: { format: 'text', text: 'Order {{1}}', example: 'A-1001' },
        footer: 'Acme',
        buttons: [
          { type: 'quick_reply', text: 'Yes' },
          { type: 'quick_reply', text: 'No' },
          { type: 'url', text: 'Track', url: 'https://x.test/{{1}}', example: 'https://x.test/1' },
          { type: 'copy_code', example: 'SAVE10' },
        ],
      }),
    ).toEqual([]);
  });

  it('names each broken rule by its path', () => {
    expect(
      templateDraftProblems({
        body: { text: '{{1}} and {{3}}', examples: ['a'] },
        header: { format: 'text', text: 'No variable', example: 'x' },
        footer: 'Bye {{1}}',
        buttons: [
          { type: 'url', text: 'A', url: 'https://x.test/a' },
          { type: 'url', text: 'B', url: 'https://x.test/b' },
          { type: 'url', text: 'C', url: 'https://x.test/{{1}}' },
        ],
      }).map((problem) => problem.field),
    ).toEqual(['body.text', 'body.text', 'body.examples', 'header.example', 'footer', 'buttons', 'buttons.2.example']);
  });
});

describe('messageError', () => {
  it('marks rate limits and transient failures retryable, and the message’s own faults not', () => {
    expect(messageError(130429, 'Rate limit hit')).toEqual({ code: 130429, title: 'Rate limit hit', retryable: true });
    expect(messageError(131056, 'Pair rate limit').retryable).toBe(true);
    for (const code of [131026, 131047, 132000, 132001, 132012, 132015])
      expect(messageError(code, '').retryable).toBe(false);
  });
});
