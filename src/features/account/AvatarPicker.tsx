// The personal centre's avatar: tapping it chooses a picture (checked here, then uploaded with its progress shown);
// the uploaded picture becomes the head portrait.
import { Avatar, Mask, ProgressCircle, Toast } from 'antd-mobile'
import { useRef, useState, type ChangeEvent } from 'react'
import { AVATAR_TYPES } from '../../../worker/protocol/files.ts'
import { zhCN } from '../../i18n/zh-CN.ts'
import { useCall } from '../../core/use-call.ts'
import { uploadFile } from '../files/upload.ts'
import { avatarFileProblem } from './avatar-upload.ts'

const t = zhCN.files

export const AvatarPicker = ({ avatar, fallback, label, onChanged }: {
  avatar: string | null
  /** the first character of the name, shown without an avatar. */
  fallback: string
  label: string
  onChanged: (url: string) => void
}) => {
  const call = useCall()
  const input = useRef<HTMLInputElement>(null)
  const [progress, setProgress] = useState<number | null>(null)

  const chosen = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0]
    e.target.value = ''
    if (!file) return
    const problem = avatarFileProblem(file)
    if (problem) return void Toast.show({ content: problem })
    setProgress(0)
    try {
      const ticket = await call('getUploadTicket', { purpose: 'avatar' })
      if (!ticket.ok || !ticket.data) return
      const done = await uploadFile(ticket.data.uploadUrl, file, setProgress)
      if (!done.ok) return void Toast.show({ content: done.msg })
      onChanged(done.file.url)
      Toast.show({ content: t.avatarSaved })
    } finally {
      setProgress(null)
    }
  }

  return (
    <>
      <button type="button" className="ac-avatar-button" data-testid="avatar-change" aria-label={`${label}，${t.changeAvatar}`}
        onClick={() => input.current?.click()} disabled={progress !== null}>
        {avatar ? <Avatar className="ac-avatar" src={avatar} data-testid="avatar-image" /> : <span className="ac-avatar-default">{fallback}</span>}
        <span className="ac-avatar-edit" aria-hidden="true">✎</span>
      </button>
      <input ref={input} type="file" accept={AVATAR_TYPES.join(',')} hidden data-testid="avatar-input" onChange={(e) => void chosen(e)} />
      <Mask visible={progress !== null} opacity="thin">
        <div className="ac-upload" role="status" data-testid="avatar-progress">
          <ProgressCircle percent={progress ?? 0} style={{ '--size': '64px' }}>{progress ?? 0}%</ProgressCircle>
          <span>{t.uploading(progress ?? 0)}</span>
        </div>
      </Mask>
    </>
  )
}
