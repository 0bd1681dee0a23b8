/** sessionStorage key set once the login prompt has been shown in this browser session (e2e sets it too). */
export const LOGIN_PROMPT_SHOWN_KEY = 'recensera:login-prompt-shown';
