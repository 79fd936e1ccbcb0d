import type { Locator, Page } from 'playwright-core';

/** Small page objects for the role-play screen, shared by the browser tests. */
export const roleplay = {
  callCard: (page: Page): Locator => page.getByRole('region', { name: 'Role play conversation' }),
  transcript: (page: Page): Locator => page.getByRole('region', { name: 'Live Transcript' }),
  transcriptLines: (page: Page): Locator => page.getByTestId('transcript-panel').locator('li'),
  balance: (page: Page): Locator => page.getByTestId('speaking-balance'),
  coaching: (page: Page): Locator => page.getByRole('region', { name: 'Coaching Feedback' }),
  /** The one form after a call, under the locked sections (email unlocks and sends the summary). */
  summaryForm: (page: Page): Locator => page.getByRole('form', { name: 'Unlock and email me the summary' }),
  resultsActions: (page: Page): Locator => page.getByTestId('results-actions'),

  async startCall(page: Page): Promise<void> {
    await roleplay.callCard(page).getByRole('button', { name: 'Talk', exact: true }).click();
  },

  /** Presses stop; under 30 s the page asks first, and `confirmEarly` answers 'Stop Anyway'. */
  async stopCall(page: Page, { confirmEarly = true } = {}): Promise<void> {
    await roleplay.callCard(page).getByRole('button', { name: 'Stop call' }).click();
    const dialog = page.getByRole('dialog', { name: 'Stop call early?' });
    if (confirmEarly && (await dialog.isVisible().catch(() => false))) {
      await dialog.getByRole('button', { name: 'Stop Anyway' }).click();
    }
  },

  /**
   * On a transcribed recording: asks for the coaching with 'Generate Coaching Feedback', unless
   * the coaching the server writes by itself is already on the page.
   */
  async generateCoaching(page: Page, timeoutMs = 150_000): Promise<void> {
    const button = page.getByRole('button', { name: 'Generate Coaching Feedback' });
    const card = page.getByRole('region', { name: 'Coaching Feedback' });
    await button.or(card).first().waitFor({ timeout: timeoutMs });
    // The coaching may land (and the button go) at the moment it is clicked.
    if (await button.isVisible()) await button.click({ timeout: 5000 }).catch(() => undefined);
    await card.waitFor({ timeout: timeoutMs });
  },

  /** Waits until the coaching card shows scores, or throws with the card's error text. */
  async waitForCoaching(page: Page, timeoutMs = 60_000): Promise<Locator> {
    const card = roleplay.coaching(page);
    await card.waitFor({ timeout: timeoutMs });
    await card
      .getByText(/Score: \d+\/10|Unable to generate coaching feedback\.|Unable to parse coaching feedback\./)
      .first()
      .waitFor({ timeout: timeoutMs });
    const failure = card.getByRole('alert');
    if (await failure.count())
      throw new Error(`The coaching card shows an error: ${await failure.innerText()}`);
    return card;
  },
};
