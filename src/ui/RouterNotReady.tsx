// Error boundary around the router (§8): if the router itself fails, say in Chinese that it is not ready.
import { Button } from 'antd-mobile'
import { Component, type ReactNode } from 'react'
import { zhCN } from '../i18n/zh-CN.ts'

export class RouterNotReady extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false }

  static getDerivedStateFromError() {
    return { failed: true }
  }

  override render() {
    if (!this.state.failed) return this.props.children
    return (
      <div className="center-state" data-testid="router-not-ready">
        <p>{zhCN.screen.routerNotReady}</p>
        <Button color="primary" fill="outline" onClick={() => window.location.reload()}>
          {zhCN.app.retry}
        </Button>
      </div>
    )
  }
}
