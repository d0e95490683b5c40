// /package/personalInfo/personalInfo: the personal centre. Avatar (tap to upload a new one), nickname (editable), masked phone, star coins,
// coupons and activation codes, new coupons and activities, security code, real-name and settings entries, and the
// invitation link to share.
import { useNavigate } from '@tanstack/react-router'
import { Button, Dialog, List, Skeleton, Toast } from 'antd-mobile'
import { useCallback, useEffect, useState } from 'react'
import type { AccountSecurity, LeftInfo } from '../../../../worker/protocol/account.ts'
import { useCore } from '../../../core-context.tsx'
import { AvatarPicker } from '../../../features/account/AvatarPicker.tsx'
import { inviteLink } from '../../../features/account/display.ts'
import { Points } from '../../../features/analytics/points.ts'
import { track } from '../../../features/analytics/track.ts'
import { PersonalActivities } from '../../../features/account/PersonalActivities.tsx'
import { shareLink } from '../../../features/account/share.ts'
import { useCall } from '../../../core/use-call.ts'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { isMobile, NICKNAME_MAX, nicknameOk } from '../../../../worker/protocol/validators.ts'
import { maskPhone } from '../../../lib/validators.ts'
import { useAppStore } from '../../../store/index.ts'
import { Page } from '../../../ui/Page.tsx'
import '../../../features/account/account.css'
import { PATHS, type RoutePath } from '../../../router/paths.ts'

const t = zhCN.account.personal

interface Info {
  readonly nickName: string
  readonly left: LeftInfo | null
  readonly security: AccountSecurity | null
}

export default function PersonalInfoScreen() {
  const call = useCall()
  const { api } = useCore()
  const navigate = useNavigate()
  const user = useAppStore((s) => s.session.user)
  const phone = useAppStore((s) => s.session.phone ?? s.session.user?.phone ?? '')
  // shared state: the core keeps the last getHeadPortrait answer, so an avatar changed in any tab shows here at once
  const avatar = useAppStore((s) => s.avatar ?? null)
  const [info, setInfo] = useState<Info | null>(null)
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState('')
  const [saving, setSaving] = useState(false)

  const load = useCallback(async () => {
    void call('getHeadPortrait', {})
    const [personal, left, security] = await Promise.all([
      call('personalInfo', {}), call('leftInfo', {}), call('accountSecurity', {}),
    ])
    setInfo({
      nickName: (personal.ok && personal.data && personal.data.nickName) || '',
      left: (left.ok && left.data) || null,
      security: (security.ok && security.data) || null,
    })
  }, [call])

  useEffect(() => {
    void load()
  }, [load])

  const go = (to: RoutePath) => void navigate({ to })
  const username = user?.username ?? ''
  const link = inviteLink(window.location.origin, username)
  const displayName = info?.nickName || username

  const saveNickname = async () => {
    if (!nicknameOk(draft)) return void Toast.show({ content: t.nicknameInvalid })
    setSaving(true)
    const r = await call('updatePersonalInfo', { nickName: draft.trim() })
    setSaving(false)
    if (!r.ok) return
    setEditing(false)
    Toast.show({ content: t.nicknameSaved })
    setInfo((i) => i && { ...i, nickName: draft.trim(), left: i.left && { ...i.left, surfaceName: draft.trim() } })
    void api.refreshSession()
  }

  const share = async () => {
    track(api, Points.shareInvite)
    const outcome = await shareLink(link, t.inviteShareTitle)
    if (outcome === 'copied') Toast.show({ content: t.inviteCopied })
    if (outcome === 'failed') Toast.show({ content: t.inviteCopyFailed })
  }

  const boundPhone = isMobile(phone)
  return (
    <Page testId="personal-page">
      <div className="ac-body">
        <div className="ac-card ac-profile" data-testid="personal-header">
          <AvatarPicker avatar={avatar} fallback={[...displayName][0] ?? ''} label={t.avatar}
            onChanged={() => void call('getHeadPortrait', {})} />
          <div>
            <div className="ac-profile-name" data-testid="personal-name">{info ? displayName : <Skeleton.Title animated />}</div>
            <div className="ac-profile-phone" data-testid="personal-phone">{boundPhone ? maskPhone(phone) : t.bindPhone}</div>
          </div>
        </div>

        <div className="ac-card ac-stats">
          <button type="button" className="ac-stat" data-testid="personal-star-coin" onClick={() => go(PATHS.starCoin)}>
            <strong>{info?.left?.starCoin ?? '-'}</strong>{t.starCoin}
          </button>
          <button type="button" className="ac-stat" data-testid="personal-coupons" onClick={() => go(PATHS.couponNum)}>
            <strong>{info?.left?.couponNum ?? '-'}</strong>{t.coupons}
          </button>
          <button type="button" className="ac-stat" data-testid="personal-activation" onClick={() => go(PATHS.activationCode)}>
            <strong>›</strong>{t.activationCode}
          </button>
        </div>

        <PersonalActivities onRedeemed={() => void load()} />

        <List className="ac-list">
          <List.Item data-testid="personal-nickname" extra={info?.nickName || t.nicknameUnset} onClick={() => { setDraft(info?.nickName ?? ''); setEditing(true) }}>
            {t.nickname}
          </List.Item>
          <List.Item extra={username}>{t.account}</List.Item>
          <List.Item data-testid="personal-bind-phone" extra={boundPhone ? maskPhone(phone) : t.bindPhone} description={boundPhone ? t.changePhone : undefined}
            onClick={() => go(PATHS.bindingNumber)}>
            {t.phone}
          </List.Item>
          <List.Item data-testid="personal-security" extra={info?.security ? (info.security.hasSecondaryPassword ? t.securitySet : t.securityUnset) : ''}
            onClick={() => go(PATHS.setSecurityCode)}>
            {t.securityCode}
          </List.Item>
          <List.Item data-testid="personal-real-name" extra={info?.security ? (info.security.verified ? t.verified : t.unverified) : ''}
            onClick={() => go(PATHS.realNameAuthentication)}>
            {t.realName}
          </List.Item>
          <List.Item data-testid="personal-settings" onClick={() => go(PATHS.setUp)}>{t.settings}</List.Item>
        </List>

        <div className="ac-card" data-testid="personal-invite">
          <div className="ac-heading" style={{ fontSize: 16 }}>{t.invite}</div>
          <p className="ac-hint">{t.inviteHint}</p>
          <div className="ac-invite-link" data-testid="invite-link">{link}</div>
          <Button block color="primary" shape="rounded" data-testid="invite-share" onClick={() => void share()}>{t.invite}</Button>
        </div>
      </div>

      <Dialog
        visible={editing}
        title={t.nicknameEdit}
        onClose={() => setEditing(false)}
        content={
          <input className="ac-field-input" data-testid="nickname-input" autoFocus maxLength={NICKNAME_MAX}
            placeholder={t.nicknamePlaceholder} aria-label={t.nicknamePlaceholder}
            value={draft} onChange={(e) => setDraft(e.target.value)} />
        }
        actions={[[
          { key: 'cancel', text: t.cancel, onClick: () => setEditing(false) },
          { key: 'save', text: t.save, bold: true, disabled: saving, onClick: () => void saveNickname() },
        ]]}
      />
    </Page>
  )
}
