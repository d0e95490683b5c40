// The tab's own check of a chosen avatar before anything is uploaded (the server checks again).
import { describe, expect, it } from 'vitest'
import { avatarFileProblem } from '../../../src/features/account/avatar-upload.ts'
import { AVATAR_MAX_BYTES } from '../../../worker/protocol/files.ts'

describe('avatar file check', () => {
  it('takes JPG, PNG and WebP pictures up to 2 MB', () => {
    expect(avatarFileProblem({ type: 'image/png', size: 1000 })).toBeNull()
    expect(avatarFileProblem({ type: 'image/jpeg', size: AVATAR_MAX_BYTES })).toBeNull()
    expect(avatarFileProblem({ type: 'image/webp', size: 1 })).toBeNull()
  })

  it('refuses other types, empty and oversized files with a Chinese reason', () => {
    expect(avatarFileProblem({ type: 'image/gif', size: 10 })).toBe('仅支持 JPG、PNG、WebP 格式的图片')
    expect(avatarFileProblem({ type: '', size: 10 })).toBe('仅支持 JPG、PNG、WebP 格式的图片')
    expect(avatarFileProblem({ type: 'image/png', size: 0 })).toBe('图片内容为空')
    expect(avatarFileProblem({ type: 'image/png', size: AVATAR_MAX_BYTES + 1 })).toBe('图片不能超过2MB')
  })
})
