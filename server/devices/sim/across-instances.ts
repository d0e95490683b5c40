// The simulated phones' streams are served by whichever instance a viewer connected to, but the request that reboots,
// resets, replaces, transfers or de-authorises a device may land on another: its kicks and resets go to every
// instance (ClusterEvents), each applying them to the viewers it holds.
import type { ClusterEvents } from '../../context.ts'
import type { SimStreamServer } from './stream.ts'

const TOPIC = 'sim-stream'

type SimEvent =
  | { readonly kind: 'kick'; readonly deviceId: number; readonly code: number; readonly userId?: number }
  | { readonly kind: 'reset'; readonly deviceId: number }

export const simAcrossInstances = (local: SimStreamServer, cluster: ClusterEvents): SimStreamServer => {
  cluster.subscribe(TOPIC, (payload) => {
    const event = payload as SimEvent
    if (event.kind === 'kick') local.kick(event.deviceId, event.code, event.userId)
    else local.resetPhone(event.deviceId)
  })
  // this instance's viewers are handled before publish resolves; the others' follow on the bus
  const publish = (event: SimEvent): void => void cluster.publish(TOPIC, event).catch(() => undefined)
  return {
    handleUpgrade: (request, socket, head) => local.handleUpgrade(request, socket, head),
    kick: (deviceId, code, userId) => publish(userId === undefined ? { kind: 'kick', deviceId, code } : { kind: 'kick', deviceId, code, userId }),
    resetPhone: (deviceId) => publish({ kind: 'reset', deviceId }),
    viewerCount: (deviceId) => local.viewerCount(deviceId),
    close: () => local.close(),
  }
}
