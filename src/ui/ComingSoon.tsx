// The honest page of a screen that is not built yet: its name, "此功能即将上线", and a way home.
import { Button } from 'antd-mobile'
import { useNavigate } from '@tanstack/react-router'
import { zhCN } from '../i18n/zh-CN.ts'
import { HOME } from '../router/paths.ts'
import { Page } from './Page.tsx'

export const ComingSoon = ({ name }: { name: string }) => {
  const navigate = useNavigate()
  return (
    <Page testId="coming-soon">
      <div className="center-state">
        <h2>{name}</h2>
        <p>{zhCN.comingSoon.text}</p>
        <Button color="primary" fill="outline" onClick={() => void navigate({ to: HOME })}>
          {zhCN.comingSoon.backHome}
        </Button>
      </div>
    </Page>
  )
}
