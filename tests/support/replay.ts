// Replays an exported event log (settings → 导出诊断日志) into the one projection: the state a bug report describes.
import type { EventLogExport, Snapshot } from '../../worker/protocol/commands.ts'
import { reduce } from '../../worker/protocol/projection/index.ts'

export const replayExport = (log: EventLogExport): Snapshot => {
  if (log.kind !== 'cloud-phone-event-log' || log.version !== 1) throw new Error('not an exported event log')
  return log.events.reduce((state, e) => reduce(state, e.event, e.seq), log.base)
}
