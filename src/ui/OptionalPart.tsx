// Around a part of a screen that loads as a chunk of its own and that the screen can do without (the home's closed
// 更多 sheet): if its chunk cannot load (the network gone before the service worker stored it), the part is left out
// and the screen stays, instead of the route's error view replacing it.
import { Component, type ReactNode } from 'react'

export class OptionalPart extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false }

  static getDerivedStateFromError() {
    return { failed: true }
  }

  override render() {
    return this.state.failed ? null : this.props.children
  }
}
