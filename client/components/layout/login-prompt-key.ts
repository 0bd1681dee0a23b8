/**
 * localStorage key set once the login prompt has been shown in this browser (e2e sets it too):
 * once per browser, not per tab, so each shared link opened in a new tab does not ask again.
 */
export const LOGIN_PROMPT_SHOWN_KEY = 'recensera:login-prompt-shown';
