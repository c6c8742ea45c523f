// Package auth is the profile service's domain: accounts, sign-in, sessions,
// verification codes, the Google authenticator (TOTP), phone and e-mail
// binding, password change and reset, and the login and settings histories.
// It speaks only to the storage port (tenger/internal/store), a Notifier that
// delivers codes by SMS or e-mail, and the store-backed rate limiter.
//
// # Item layout (one table, DynamoDB single-table style)
//
//	pk                          sk          what
//	USER#<uid>                  PROFILE     the account: uid, email, countryCode, mobileNumber,
//	                                        pwHash (argon2id PHC string), nickName, realName,
//	                                        firstName, lastName, country, kycStatus (0|1|2|3),
//	                                        kycLevel, kycRejectReason (written by internal/kyc),
//	                                        accountType ("regular"|"enterprise"), googleStatus (0|1),
//	                                        googleSecret / googlePending (sealed), isOpenMobileCheck (0|1),
//	                                        sessGen (session generation), totpStep (last TOTP step used),
//	                                        invitedCode, ctime (ms), withdrawLockUntil (ms: an
//	                                        authenticator reset or an e-mail change locks withdrawals),
//	                                        cancelledAt (ms, while the owner has cancelled the account:
//	                                        cancel.go; internal/account keeps USER#<uid>/CANCELLATION)
//	USER#<uid>                  COUNTERS    loginSeq, settingSeq: sequence numbers of the histories
//	USER#<uid>                  LOGIN#<seq:012d>    login history entry: time (ms), ip, device, action
//	USER#<uid>                  SETTING#<seq:012d>  setting history entry: time (ms), ip, device, action
//	EMAIL#<lower-case e-mail>   UNIQUE      uid: makes an e-mail belong to at most one account
//	PHONE#+<cc>#<number>        UNIQUE      uid: the same for a phone number
//	SESSION#<sha256(token)>     SESSION     uid, gen, createdAt, expiresAt, ip, device, ttl
//	CHALLENGE#<sha256(token)>   CHALLENGE   second sign-in step: uid, type, tries, expiresAt, ttl
//	RESET#<sha256(token)>       RESET       password-reset permission: uid, expiresAt, ttl
//	CODE#<target>#<op>          CODE        verification code: salt, hash, sentAt, expiresAt, tries, ttl
//	                                        (target is "email:<lower>" or "phone:+<cc>#<number>")
//
// Rate-limit items (RL#..., RLF#...) belong to package ratelimit.
//
// # Why it is correct on DynamoDB too
//
//   - A new account is written in ONE transaction: the profile (ItemNotExists,
//     so two accounts never share a uid), the e-mail or phone uniqueness item
//     (ItemNotExists, so two concurrent sign-ups with the same e-mail cannot
//     both succeed) and the deletion of the sign-up code (conditional on its
//     sentAt, so a code is used once).
//   - Sessions hold the user's session generation at creation. ResolveSession
//     reads the session and the profile (strongly consistent gets) and accepts
//     the session only while the generations match. A password change raises
//     the generation and, in the same transaction, moves the current session
//     to the new generation, so every other session ends at once without
//     listing them (no eventually consistent index is involved). Logout deletes
//     the session item.
//   - Tokens (sessions, sign-in challenges, reset) are 32 random bytes; only
//     their SHA-256 is stored. Codes are stored as a salted SHA-256 and are
//     never logged.
//   - Verification codes, challenges and reset tokens are used once: the
//     consuming write is a delete conditional on the value read.
//   - TOTP replay: the step of the last accepted code is kept on the profile
//     and raised with a conditional update, so one code is accepted once.
package auth
