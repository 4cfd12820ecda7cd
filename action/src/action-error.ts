/** A failure the Action explains to the user in one line (the job log shows it as the error). */
export class ActionError extends Error {
  override name = 'ActionError';
}
