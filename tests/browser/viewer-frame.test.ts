// Issue 11 finding 13: the service's viewer page is hosted in a sandboxed frame without clipboard-read. A viewer page
// on the app's own origin gets an opaque origin (it cannot reach into the app); another host keeps its own origin so
// its scripts and sockets work, but neither may navigate the app, open pop-ups or submit forms.
import { afterEach, describe, expect, it } from 'vitest'
import { createFrameViewerStream } from '../../src/features/devices/stream/frame-viewer.ts'
import type { DeviceStream } from '../../src/features/devices/stream/types.ts'

const connect = (internetHttps: string) => ({
  internetHttps, sn: 'SN880001', userCardId: 880001, localIp: '10.0.0.8', cardToken: 'card-token',
})

let stream: DeviceStream | null = null
let host: HTMLDivElement | null = null
afterEach(() => {
  stream?.close()
  host?.remove()
})

const mount = (internetHttps: string): HTMLIFrameElement => {
  stream = createFrameViewerStream(connect(internetHttps))
  host = document.createElement('div')
  document.body.append(host)
  stream!.mount(host)
  return host.querySelector('iframe')!
}

describe('viewer frame', () => {
  it('a viewer page on another host runs scripts on its own origin and nothing more, without clipboard-read', () => {
    const frame = mount('https://viewer.example')
    expect([...frame.sandbox].sort()).toEqual(['allow-same-origin', 'allow-scripts'])
    expect(frame.allow.split(';').map((p) => p.trim())).not.toContain('clipboard-read')
    expect(frame.allow).toContain('clipboard-write')
  })

  it('a viewer page on the app\'s own origin loads with an opaque origin: the app\'s document is out of its reach', async () => {
    const frame = mount(location.origin)
    expect([...frame.sandbox]).toEqual(['allow-scripts'])
    await new Promise<void>((resolve) => frame.addEventListener('load', () => resolve(), { once: true }))
    expect(frame.contentDocument).toBeNull()
  })
})
