package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"time"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

// Operation types of verification codes (spec §7 and the API contract).
const (
	OpRegister      = 1
	OpForgot        = 3
	OpBindPhone     = 4
	OpChangeTarget  = 5
	OpTradePassword = 6
	OpWithdraw      = 10
	OpSecurity      = 11
	OpWithdrawEmail = 17
	OpLogin         = 25
	OpAddBank       = 28
	// OpResetAuthenticator: the e-mail and SMS codes that reset a lost
	// authenticator at sign-in (recovery.go).
	OpResetAuthenticator = 29
)

// ownTargetOps are operations whose code goes to the signed-in user's own
// bound e-mail or phone.
var ownTargetOps = map[int]bool{
	OpTradePassword: true, OpWithdraw: true, OpSecurity: true, OpWithdrawEmail: true, OpAddBank: true,
}

func codeKey(id ident, op int) store.Key {
	return store.Key{PK: "CODE#" + id.target() + "#" + strconv.Itoa(op), SK: "CODE"}
}

func codeHash(salt, code string) string {
	h := sha256.Sum256([]byte(salt + "|" + code))
	return hex.EncodeToString(h[:])
}

func newCode() string {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		panic("auth: no randomness: " + err.Error())
	}
	return fmt.Sprintf("%06d", n.Int64())
}

// SendEmailCode sends a code by e-mail. An empty email means the signed-in
// user's bound address.
func (s *Service) SendEmailCode(ctx context.Context, m Meta, email string, op int) error {
	var id ident
	var err error
	if email == "" {
		id, err = s.ownTarget(ctx, m, ChannelEmail)
	} else {
		id, err = normEmail(email)
	}
	if err != nil {
		return err
	}
	return s.sendCodeChecked(ctx, m, id, op)
}

// SendSMSCode sends a code by SMS. Empty cc and number mean the signed-in
// user's bound phone.
func (s *Service) SendSMSCode(ctx context.Context, m Meta, cc, number string, op int) error {
	var id ident
	var err error
	if cc == "" && number == "" {
		id, err = s.ownTarget(ctx, m, ChannelSMS)
	} else {
		id, err = normPhone(cc, number)
	}
	if err != nil {
		return err
	}
	return s.sendCodeChecked(ctx, m, id, op)
}

// ownTarget is the signed-in user's bound e-mail or phone.
func (s *Service) ownTarget(ctx context.Context, m Meta, channel string) (ident, error) {
	if m.UserID == "" {
		if channel == ChannelEmail {
			return ident{}, apperr.Param("email: required")
		}
		return ident{}, apperr.Param("countryCode and mobileNumber: required")
	}
	u, err := s.getUser(ctx, m.UserID)
	if err != nil {
		return ident{}, err
	}
	return u.boundTarget(channel)
}

// boundTarget is the user's bound e-mail (ChannelEmail) or phone (ChannelSMS).
func (u User) boundTarget(channel string) (ident, error) {
	if channel == ChannelEmail {
		id, ok := u.emailIdent()
		if !ok {
			return ident{}, apperr.New(apperr.CodeEmailNotBound)
		}
		return id, nil
	}
	id, ok := u.phone()
	if !ok {
		return ident{}, apperr.New(apperr.CodePhoneNotBound)
	}
	return id, nil
}

// sendCodeChecked applies the per-operation policy, then sends.
func (s *Service) sendCodeChecked(ctx context.Context, m Meta, id ident, op int) error {
	switch {
	case op == OpRegister || op == OpForgot:
		// Whether an account uses the e-mail or phone shows in the answer,
		// so every asking counts against the IP's code sends, answered or
		// not: nobody can list which accounts exist faster than codes go.
		if err := s.allowCodeIP(ctx, m); err != nil {
			return err
		}
		_, err := s.st.Get(ctx, id.uniqueKey())
		switch {
		case err == nil && op == OpRegister:
			return apperr.New(apperr.CodeAccountExists)
		case errors.Is(err, store.ErrNotFound) && op == OpForgot:
			return apperr.New(apperr.CodeAccountNotFound)
		case err != nil && !errors.Is(err, store.ErrNotFound):
			return internal(err)
		}
		return s.deliverCode(ctx, m, id, op) // the IP was counted above
	case op == OpBindPhone || op == OpChangeTarget:
		if m.UserID == "" {
			return apperr.New(apperr.CodeNotSignedIn)
		}
		// Whether another account has the address shows in the answer,
		// so every asking counts against the IP's code sends, as
		// sign-up's does: a signed-in caller cannot list accounts faster
		// than codes go either (the e-mail change tells no more: it checks
		// this code before whether the address is taken).
		if err := s.allowCodeIP(ctx, m); err != nil {
			return err
		}
		it, err := s.st.Get(ctx, id.uniqueKey())
		switch {
		case err == nil && it.Str(attrUID) == m.UserID:
			return apperr.New(apperr.CodeSameTarget)
		case err == nil:
			return apperr.New(apperr.CodeAccountExists)
		case !errors.Is(err, store.ErrNotFound):
			return internal(err)
		}
		if op == OpBindPhone && id.isEmail() {
			return apperr.New(apperr.CodeOperationNotAllowed)
		}
		return s.deliverCode(ctx, m, id, op) // the IP was counted above
	case ownTargetOps[op]:
		own, err := s.ownTarget(ctx, m, id.channel())
		if err != nil {
			if m.UserID == "" {
				return apperr.New(apperr.CodeNotSignedIn)
			}
			return err
		}
		if own.target() != id.target() {
			return apperr.Param("the code of this operation goes to your own bound e-mail or phone")
		}
	default:
		return apperr.New(apperr.CodeOperationNotAllowed)
	}
	return s.sendCode(ctx, m, id, op)
}

// sendCode issues and delivers a code, subject to the IP and target limits
// and the 90-second resend window.
func (s *Service) sendCode(ctx context.Context, m Meta, id ident, op int) error {
	if err := s.allowCodeIP(ctx, m); err != nil {
		return err
	}
	return s.deliverCode(ctx, m, id, op)
}

// allowCodeIP counts one code send against the caller's IP.
func (s *Service) allowCodeIP(ctx context.Context, m Meta) error {
	if m.IP == "" {
		return nil
	}
	d, err := s.limiter.Allow(ctx, "code-ip:"+m.IP, s.limits.CodeIPSends, s.limits.CodeSendWindow)
	if err != nil {
		return internal(err)
	}
	if !d.Allowed {
		return limited(apperr.CodeTooManyRequests, d)
	}
	return nil
}

// deliverCode issues and delivers a code, subject to the target limit and
// the 90-second resend window (the IP was counted by the caller).
func (s *Service) deliverCode(ctx context.Context, m Meta, id ident, op int) error {
	code, sentAt, err := s.issueCode(ctx, id, op)
	if err != nil {
		return err
	}
	d, err := s.limiter.Allow(ctx, "code-target:"+id.target(), s.limits.CodeTargetSends, s.limits.CodeSendWindow)
	if err != nil || !d.Allowed {
		_ = s.st.Delete(ctx, codeKey(id, op), store.Eq("sentAt", sentAt))
		if err != nil {
			return internal(err)
		}
		return limited(apperr.CodeTooManyRequests, d)
	}
	subject, text := codeMessage(m.Lang, code)
	err = s.notifier.Send(ctx, Message{Channel: id.channel(), To: id.to(), OperationType: op, Code: code, Subject: subject, Text: text})
	if err != nil {
		// Free the resend window: the user never got this code.
		_ = s.st.Delete(ctx, codeKey(id, op), store.Eq("sentAt", sentAt))
		s.log.Warn().Err(err).Str("channel", id.channel()).Int("operationType", op).Msg("code delivery failed")
		return apperr.New(apperr.CodeSendFailed).WithCause(err)
	}
	return nil
}

// resendWindow is how long after a code of op a new one may be sent.
func resendWindow(op int) time.Duration {
	if op == OpSecurity {
		return SecurityResend
	}
	return CodeResend
}

// issueCode stores a new code for id+op unless one was sent within the
// resend window (a burned code may be replaced at once).
func (s *Service) issueCode(ctx context.Context, id ident, op int) (code string, sentAt int64, err error) {
	now := s.now()
	code = newCode()
	salt := hex.EncodeToString(randBytes(16))
	sentAt = now.UnixMilli()
	k := codeKey(id, op)
	it := store.Item{
		store.AttrPK: k.PK, store.AttrSK: k.SK,
		"salt": salt, "hash": codeHash(salt, code), "sentAt": sentAt,
		"expiresAt": now.Add(CodeTTL).UnixMilli(), "tries": 0, store.AttrTTL: ttlAt(now.Add(CodeTTL)),
	}
	resend := resendWindow(op)
	cond := store.Or(store.ItemNotExists(),
		store.Compare("sentAt", store.CmpLe, now.Add(-resend).UnixMilli()),
		store.Compare("tries", store.CmpGe, CodeMaxTries))
	err = s.st.Put(ctx, it, cond)
	if errors.Is(err, store.ErrConditionFailed) {
		cur, gerr := s.st.Get(ctx, k)
		wait := resend
		if gerr == nil {
			wait = time.UnixMilli(cur.Int("sentAt")).Add(resend).Sub(now)
		}
		secs := int((wait + time.Second - 1) / time.Second)
		if secs < 1 {
			secs = 1
		}
		return "", 0, apperr.New(apperr.CodeCodeResendWait, secs).WithData(retryData{RetryAfter: secs})
	}
	if err != nil {
		return "", 0, internal(err)
	}
	return code, sentAt, nil
}

// checkCode verifies a code for id+op without using it up; it returns the
// transaction operation that uses it up (to commit with the action it
// allows). A wrong code counts a try; the fifth burns the code.
func (s *Service) checkCode(ctx context.Context, id ident, op int, code string) (store.Op, error) {
	k := codeKey(id, op)
	if len(code) != 6 || !allDigits(code) {
		return store.Op{}, apperr.New(apperr.CodeVerifyCodeWrong)
	}
	it, err := s.st.Get(ctx, k)
	if errors.Is(err, store.ErrNotFound) {
		return store.Op{}, apperr.New(apperr.CodeCodeExpired)
	}
	if err != nil {
		return store.Op{}, internal(err)
	}
	now := s.now()
	if it.Int("expiresAt") <= now.UnixMilli() {
		return store.Op{}, apperr.New(apperr.CodeCodeExpired)
	}
	if it.Int("tries") >= CodeMaxTries {
		return store.Op{}, apperr.New(apperr.CodeCodeBurned)
	}
	sentAt := it.Int("sentAt")
	want := it.Str("hash")
	if subtle.ConstantTimeCompare([]byte(codeHash(it.Str("salt"), code)), []byte(want)) != 1 {
		upd := store.NewUpdate().AddInt("tries", 1)
		after, err := s.st.Update(ctx, k, upd, store.And(store.Eq("sentAt", sentAt), store.Compare("tries", store.CmpLt, CodeMaxTries)))
		if errors.Is(err, store.ErrConditionFailed) {
			return store.Op{}, apperr.New(apperr.CodeCodeBurned)
		}
		if err != nil {
			return store.Op{}, internal(err)
		}
		if after.Int("tries") >= CodeMaxTries {
			return store.Op{}, apperr.New(apperr.CodeCodeBurned)
		}
		return store.Op{}, apperr.New(apperr.CodeVerifyCodeWrong)
	}
	return store.DeleteOp(k, store.And(store.Eq("sentAt", sentAt), store.Eq("hash", want),
		store.Compare("tries", store.CmpLt, CodeMaxTries))), nil
}

func codeMessage(lang, code string) (subject, text string) {
	if lang == apperr.LangMN {
		return "Tenger баталгаажуулах код",
			"Таны Tenger баталгаажуулах код: " + code + ". Код 5 минутын турш хүчинтэй. Хэнд ч бүү хэлээрэй."
	}
	return "Tenger verification code",
		"Your Tenger verification code is " + code + ". It is valid for 5 minutes. Never share it with anyone."
}

func randBytes(n int) []byte {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("auth: no randomness: " + err.Error())
	}
	return b
}
