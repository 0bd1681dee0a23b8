import { describe, expect, it } from 'vitest';
import { isMessageKey as serverIsMessageKey, messages } from '../schemas/messages';
import { isMessageKey } from './message-key';
import { sv } from './sv';

describe("the client's message-key check", () => {
  it('knows exactly the keys the server sends', () => {
    expect(Object.keys(sv.messages).sort()).toEqual(Object.keys(messages).sort());
  });

  it('answers as the server module does, without its English texts', () => {
    for (const value of ['invalidInput', 'loginWrongPassword', 'passwordUpdated', 'toString', '__proto__', 'Invalid input.', '']) {
      expect(isMessageKey(value), value).toBe(serverIsMessageKey(value));
    }
  });
});
