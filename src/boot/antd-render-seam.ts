// Stands in for antd-mobile/es/utils/unstable-render.js (substituted by vite.config.ts, antdRenderSeam): the same
// seam through which antd-mobile's imperative Toast, Dialog, Modal and ActionSheet render, without its default
// renderer. That default is rc-util's ReactDOM.render path, which React 19 removed, and its code with the babel async
// runtime it brings weighed ~3 kB gzip before the login screen (issue 12). antd-react19.ts sets the createRoot
// renderer as the tab boots, before anything can render.
import type { ReactElement } from 'react'

export type UnmountType = () => Promise<void>
export type RenderType = (node: ReactElement, container: Element | DocumentFragment) => UnmountType

let current: RenderType | null = null

/** antd-mobile's contract: sets the renderer when given one, answers the renderer in use. */
export function unstableSetRender(render?: RenderType): RenderType {
  if (render) current = render
  if (current === null) throw new Error('antd-mobile rendered before src/boot/antd-react19.ts set its renderer')
  return current
}
