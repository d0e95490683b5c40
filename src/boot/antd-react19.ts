// antd-mobile's imperative Toast/Dialog render through ReactDOM.render, which React 19 removed: give them createRoot.
// (The build ships antd-mobile's render seam without that default renderer: antd-render-seam.ts.)
import { unstableSetRender } from 'antd-mobile'
import { createRoot, type Root } from 'react-dom/client'

const roots = new WeakMap<Element | DocumentFragment, Root>()

unstableSetRender((node, container) => {
  const root = roots.get(container) ?? createRoot(container)
  roots.set(container, root)
  root.render(node)
  return async () => {
    // unmounting inside the render that triggered it is not allowed; leave that render first
    await new Promise((resolve) => setTimeout(resolve, 0))
    root.unmount()
    roots.delete(container)
  }
})
