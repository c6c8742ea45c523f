import {
  digitsOnly,
  isCode,
  isEmail,
  isPhoneNumber,
  isValidPassword,
  validateCode,
  validateConfirmation,
  validateEmail,
  validateGoogleCode,
  validateNewPassword,
  validateNickname,
  validatePhone,
  validationMessage,
} from './account-validation'

describe('password rule (8–32 characters, letters and digits)', () => {
  it.each([
    ['abcdefg1', true],
    ['1234567a', true],
    ['Passw0rd!#', true],
    ['Нууцүг12', true],
    ['a'.repeat(31) + '1', true],
  ])('accepts %s', (pw, ok) => {
    expect(isValidPassword(pw)).toBe(ok)
  })

  it.each([
    ['abcdef1', 'seven characters'],
    ['a'.repeat(32) + '1', '33 characters'],
    ['abcdefgh', 'no digit'],
    ['12345678', 'no letter'],
    ['abcd 1234', 'a space'],
    ['abcd\t1234', 'a tab'],
    ['', 'empty'],
  ])('rejects %s (%s)', (pw) => {
    expect(isValidPassword(pw)).toBe(false)
  })

  it('counts characters, not UTF-16 units', () => {
    // Seven emoji plus a letter and a digit are nine characters but 16 code units.
    expect(isValidPassword('😀😀😀😀😀😀😀a1')).toBe(true)
    expect(isValidPassword('😀'.repeat(31) + 'a1')).toBe(false)
  })

  it('reports required before the rule', () => {
    expect(validateNewPassword('')).toBe('required')
    expect(validateNewPassword('short1')).toBe('passwordRule')
    expect(validateNewPassword('longenough1')).toBeUndefined()
  })
})

describe('password confirmation', () => {
  it('must equal the password', () => {
    expect(validateConfirmation('abcdefg1', '')).toBe('required')
    expect(validateConfirmation('abcdefg1', 'abcdefg2')).toBe('passwordMismatch')
    expect(validateConfirmation('abcdefg1', 'abcdefg1')).toBeUndefined()
  })
})

describe('verification codes (six digits)', () => {
  it('accepts exactly six digits', () => {
    expect(isCode('012345')).toBe(true)
    expect(isCode('12345')).toBe(false)
    expect(isCode('1234567')).toBe(false)
    expect(isCode('12345a')).toBe(false)
    expect(isCode('١٢٣٤٥٦')).toBe(false) // Arabic-Indic digits are not ASCII digits
  })

  it('maps to the spec messages', () => {
    expect(validateCode('')).toBe('required')
    expect(validateCode('123')).toBe('codeLength')
    expect(validateCode('123456')).toBeUndefined()
    expect(validateGoogleCode('12')).toBe('googleCodeLength')
  })

  it('code inputs keep digits only, at most six', () => {
    expect(digitsOnly('12a3 4-5678', 6)).toBe('123456')
    expect(digitsOnly('abc')).toBe('')
  })
})

describe('e-mail', () => {
  it.each(['user@example.com', 'a.b+tag@sub.example.mn', '  padded@example.com  '])('accepts %s', (v) => {
    expect(isEmail(v)).toBe(true)
  })
  it.each(['', 'user', 'user@', '@example.com', 'user@example', 'us er@example.com', 'a@b@c.com', 'user@.com'])(
    'rejects %s',
    (v) => {
      expect(isEmail(v)).toBe(false)
    },
  )
  it('rejects addresses longer than 254 characters', () => {
    expect(isEmail(`${'a'.repeat(250)}@example.com`)).toBe(false)
  })
  it('orders the messages', () => {
    expect(validateEmail(' ')).toBe('required')
    expect(validateEmail('nope')).toBe('invalidEmail')
    expect(validateEmail('ok@example.com')).toBeUndefined()
  })
})

describe('phone numbers', () => {
  it('Mongolian numbers have eight digits', () => {
    expect(isPhoneNumber('976', '88112233')).toBe(true)
    expect(isPhoneNumber('976', '8811223')).toBe(false)
    expect(isPhoneNumber('976', '881122334')).toBe(false)
  })
  it('other countries stay within E.164', () => {
    expect(isPhoneNumber('86', '13800138000')).toBe(true)
    expect(isPhoneNumber('1', '2025550123')).toBe(true)
    expect(isPhoneNumber('86', '1234')).toBe(false)
    expect(isPhoneNumber('86', '1'.repeat(14))).toBe(false)
  })
  it('rejects non-digits', () => {
    expect(isPhoneNumber('976', '8811-223')).toBe(false)
    expect(validatePhone('976', '')).toBe('required')
    expect(validatePhone('976', '123')).toBe('invalidPhone')
    expect(validatePhone('976', '99112233')).toBeUndefined()
  })
})

describe('nickname', () => {
  it('allows 1–32 characters without angle brackets', () => {
    expect(validateNickname('Бат')).toBeUndefined()
    expect(validateNickname('  ')).toBe('required')
    expect(validateNickname('x'.repeat(33))).toBe('nicknameRule')
    expect(validateNickname('<b>hi</b>')).toBe('nicknameRule')
  })
})

describe('validationMessage', () => {
  const texts: Record<string, string> = {
    codeLength: 'Please enter a 6-digit verification code',
    googleCodeLength: 'Please enter a $n-digit verification code',
    passwordMismatch: 'Password entires do not match. Try again',
  }
  const t = (key: string) => texts[key] ?? ''

  it('uses the page texts', () => {
    expect(validationMessage(t, 'codeLength')).toBe('Please enter a 6-digit verification code')
    expect(validationMessage(t, 'passwordMismatch')).toBe('Password entires do not match. Try again')
    expect(validationMessage(t, undefined)).toBeUndefined()
  })

  it('replaces $n with the code length in the Google message', () => {
    expect(validationMessage(t, 'googleCodeLength')).toBe('Please enter a 6-digit verification code')
  })

  it('falls back to the spec default when the Google text is missing', () => {
    expect(validationMessage(() => '', 'googleCodeLength')).toBe('Please enter a verification code')
  })
})

describe('passwordStrength and typedMismatch (as the new password is typed)', () => {
  it('reads weak until the rule is met, fair, then strong from 12 characters of three kinds', async () => {
    const { passwordStrength } = await import('./account-validation')
    expect(passwordStrength('')).toBe('none')
    expect(passwordStrength('abc')).toBe('weak')
    expect(passwordStrength('abcdefgh')).toBe('weak') // no digit
    expect(passwordStrength('abcdefg1')).toBe('fair')
    expect(passwordStrength('abcdefghijk1')).toBe('fair') // long, two kinds
    expect(passwordStrength('Abcdefghijk1')).toBe('strong')
    expect(passwordStrength('Өндөр нууц 2026')).toBe('weak') // spaces break the rule
    expect(passwordStrength('Өндөрнууц2026!')).toBe('strong')
  })

  it('marks a confirmation once it can no longer become the password', async () => {
    const { typedMismatch } = await import('./account-validation')
    expect(typedMismatch('Passw0rd1', '')).toBe(false)
    expect(typedMismatch('Passw0rd1', 'Pass')).toBe(false) // still typing
    expect(typedMismatch('Passw0rd1', 'Passx')).toBe(true)
    expect(typedMismatch('Passw0rd1', 'Passw0rd1')).toBe(false)
    expect(typedMismatch('Passw0rd1', 'Passw0rd12')).toBe(true)
  })
})
