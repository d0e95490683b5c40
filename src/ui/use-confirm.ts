// A confirmation dialog owned by a screen: resolves true on confirm, and closes itself when the screen unmounts
// (a navigation away must not leave a stale question on top of the next screen).
import { Dialog } from 'antd-mobile'
import { useCallback, useEffect, useRef } from 'react'
import { zhCN } from '../i18n/zh-CN.ts'

export interface ConfirmOptions {
  readonly title: string
  readonly content: string
}

export const useConfirm = (): ((options: ConfirmOptions) => Promise<boolean>) => {
  const open = useRef(new Set<{ close: () => void }>())
  useEffect(() => {
    const handlers = open.current
    return () => handlers.forEach((handler) => handler.close())
  }, [])
  return useCallback(
    ({ title, content }) =>
      new Promise<boolean>((resolve) => {
        const handler = Dialog.show({
          title,
          content,
          closeOnAction: true,
          actions: [[
            { key: 'cancel', text: zhCN.home.cancel, onClick: () => resolve(false) },
            { key: 'confirm', text: zhCN.home.confirm, bold: true, onClick: () => resolve(true) },
          ]],
          afterClose: () => {
            open.current.delete(handler)
            resolve(false)
          },
        })
        open.current.add(handler)
      }),
    [],
  )
}
