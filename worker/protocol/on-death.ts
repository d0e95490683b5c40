// The replay rule (issue 21), free of Schema so the tab's entry can import it: what a tab does with a command that was
// on its way when the core's worker died. Which endpoints `call` may repeat is the catalogue's (Endpoint.repeatable),
// told to each tab on attach (Attached.repeatable). The commands themselves are declared in ./commands.ts; the tables
// here are keyed by its CommandName, so a new command does not compile until it has decided.
import type { CommandName, Commands } from './commands.ts'

/**
 * What becomes of a command on its way when the core's worker dies (issue 21), declared for every command:
 * - `replay`: safe to repeat; sent again to the new worker and answered as if nothing had happened;
 * - `call`: `call(endpoint, payload)`: replayed when the catalogue declares the endpoint repeatable, else `unknown`;
 * - `unknown`: it may have reached the server and must not be repeated: answered at once with the "outcome unknown"
 *   failure, which tells the customer to refresh and check;
 * - `drop`: nothing to settle (the tab's route and visibility travel with the next attach; a stream's ports went with
 *   the dead worker and the viewer opens it again on reattach; ping, attach and detach belong to the link itself).
 */
export type OnDeath = 'replay' | 'call' | 'unknown' | 'drop'
export const COMMAND_ON_DEATH: { readonly [K in CommandName]: OnDeath } = {
  attach: 'drop',
  lifeLock: 'drop',
  detach: 'drop',
  // the credentials sign the user in whether the first attempt reached the server or not: the same end state
  login: 'replay',
  // the SMS code is spent by the first attempt (and a registration creates the account)
  loginWithCode: 'unknown',
  // the SMS code is spent by the first attempt
  resetPassword: 'unknown',
  refreshSession: 'replay',
  logout: 'replay',
  call: 'call',
  refreshDevices: 'replay',
  loadMealTypes: 'replay',
  reportRoute: 'drop',
  reportVisibility: 'drop',
  // a new worker opens its push socket afresh
  reportOnline: 'drop',
  getLocal: 'replay',
  setLocal: 'replay',
  setHomeView: 'replay',
  ping: 'drop',
  exitFromMaintenance: 'replay',
  exportLog: 'replay',
  openStream: 'drop',
  closeStream: 'drop',
  openWall: 'drop',
  closeWall: 'drop',
  streamStats: 'replay',
  // the id is the tab's: the ledger records it once and the server applies it once per phone
  groupCommand: 'replay',
}

/** The commands whose answer is a Reply (a CallResult with `seq`): exactly those, checked against the contract. */
type ReplyCommand = { [K in CommandName]: Commands[K]['result']['Type'] extends { readonly ok: boolean } ? K : never }[CommandName]
const REPLY: { readonly [K in ReplyCommand]: true } = {
  login: true, loginWithCode: true, resetPassword: true, refreshSession: true, call: true, refreshDevices: true, loadMealTypes: true,
  groupCommand: true,
}
export const REPLY_COMMANDS: ReadonlySet<string> = new Set(Object.keys(REPLY))
