// Fire-and-forget analytics through the core: never awaited by a screen, never shown (the endpoints fail silently).
import type { CoreClient } from '../../core/types.ts'

type Api = Pick<CoreClient['api'], 'call'>

export const track = (api: Api, pointName: string): void => {
  void Promise.resolve(api.call('stat', { pointName })).catch(() => undefined)
}

export const report = (api: Api, name: 'reportRecords' | 'addUserVisit' | 'addActiveRecord', payload: unknown = {}): void => {
  void Promise.resolve(api.call(name, payload)).catch(() => undefined)
}
