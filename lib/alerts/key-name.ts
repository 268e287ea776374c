/** The key the dashboard files an account's alerts under when the account has none yet. */
export const ALERTS_KEY_NAME = "Alerts";
