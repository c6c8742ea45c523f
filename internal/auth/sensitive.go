package auth

import (
	"context"
	"strings"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

// Operation types of the codes the account's own sensitive changes (the
// e-mail change, the cancellation) ask of the account's own e-mail and
// phone: the ones API keys ask for, as a withdrawal does (SMS under 11,
// e-mail under 17), so the web app requests them the same way everywhere.
const (
	SensitiveSMSOp   = OpSecurity
	SensitiveEmailOp = OpWithdrawEmail
)

// ownFactors is what checkOwnFactors found right: the operations that use
// the e-mail and SMS codes up, and the authenticator's time step (0 when
// the account has no authenticator), to commit with the change they allow.
type ownFactors struct {
	ops  []store.Op
	step int64
}

// profileUpdate adds the accepted authenticator step to upd and returns
// the condition that keeps the code from being accepted twice (nil
// without an authenticator). The step lives on the profile, which the
// change also updates, and one transaction may name an item once.
func (f ownFactors) profileUpdate(upd *store.Update) store.Cond {
	if f.step == 0 {
		return nil
	}
	upd.Set(attrTOTPStep, f.step)
	return store.Or(store.NotExists(attrTOTPStep), store.Compare(attrTOTPStep, store.CmpLt, f.step))
}

// checkOwnFactors checks the codes WithdrawalFactors names for u without
// using them up: every one required is present first (e-mail, then SMS,
// then Google, as VerifyWithdrawalCodes answers), then each is checked.
// The caller commits f.ops and f.profileUpdate with its change, so a
// refused change leaves the codes valid for the retry, and a wrong code
// still counts towards its own tries and the authenticator's lock-out.
func (s *Service) checkOwnFactors(ctx context.Context, u User, c Codes) (ownFactors, error) {
	needEmail, needSMS, needGoogle := WithdrawalFactors(u)
	c.Email, c.SMS, c.Google = strings.TrimSpace(c.Email), strings.TrimSpace(c.SMS), strings.TrimSpace(c.Google)
	switch {
	case needEmail && c.Email == "":
		return ownFactors{}, apperr.New(apperr.CodeEmailCodeRequired)
	case needSMS && c.SMS == "":
		return ownFactors{}, apperr.New(apperr.CodeSMSCodeRequired)
	case needGoogle && c.Google == "":
		return ownFactors{}, apperr.New(apperr.CodeGoogleCodeRequired)
	}
	var f ownFactors
	if needGoogle {
		step, err := s.matchUserTOTP(ctx, u, c.Google, false)
		if err != nil {
			return ownFactors{}, err
		}
		f.step = step
	}
	if needSMS {
		op, err := s.matchSentCode(ctx, u, Factor{Channel: ChannelSMS, Ops: []int{SensitiveSMSOp}, Code: c.SMS})
		if err != nil {
			return ownFactors{}, err
		}
		f.ops = append(f.ops, op.Named(opNameCode))
	}
	if needEmail {
		op, err := s.matchSentCode(ctx, u, Factor{Channel: ChannelEmail, Ops: []int{SensitiveEmailOp}, Code: c.Email})
		if err != nil {
			return ownFactors{}, err
		}
		f.ops = append(f.ops, op.Named(opNameCode))
	}
	return f, nil
}

// Names of the operations of a sensitive change's transaction, so a
// failure is answered by what failed rather than by its position.
const (
	opNameProfile = "profile"
	opNameCode    = "code"
	opNameNew     = "new-address"
	opNameOld     = "old-address"
	opNameHistory = "history"
)

// notice sends a security notice (no code) to the account's e-mail, or to
// its phone when it has none. It is told after the change is stored, so a
// delivery failure is logged, never returned: the change has happened.
func (s *Service) notice(ctx context.Context, to ident, subject, text string) {
	if to.email == "" && to.num == "" {
		return
	}
	m := Message{Channel: to.channel(), To: to.to(), Subject: subject, Text: text}
	if err := s.notifier.Send(context.WithoutCancel(ctx), m); err != nil {
		s.log.Warn().Err(err).Str("channel", m.Channel).Msg("security notice not delivered")
	}
}

// contact is where the account's notices go: its e-mail, else its phone.
func (u User) contact() ident {
	if id, ok := u.emailIdent(); ok {
		return id
	}
	id, _ := u.phone()
	return id
}
