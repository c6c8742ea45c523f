package wallet

import (
	"context"
	"errors"
	"strings"

	"tenger/internal/apperr"
	"tenger/internal/auth"
)

// Codes are the verification codes a call carries.
type Codes struct {
	// SMS is the code sent to the user's bound phone (smsValidCode / smsAuthCode).
	SMS string
	// Google is the authenticator code.
	Google string
	// Email is the code sent to the bound e-mail (trade password without a phone).
	Email string
}

// checkFlagCodes applies the spec's rule for the address book, the
// verify-address switch and bank accounts: an SMS code when the user's
// isOpenMobileCheck is 1 (accepted under any of smsOps, tried in order) and
// a Google code when googleStatus is 1. Presence is checked for all before
// any code is used up; then the SMS code, then the Google code is checked.
func (s *Service) checkFlagCodes(ctx context.Context, u auth.User, c Codes, smsOps ...int) error {
	if u.MobileCheck && strings.TrimSpace(c.SMS) == "" {
		return apperr.New(apperr.CodeSMSCodeRequired)
	}
	if u.GoogleOn && strings.TrimSpace(c.Google) == "" {
		return apperr.New(apperr.CodeGoogleCodeRequired)
	}
	if u.MobileCheck {
		if err := s.verifySMS(ctx, u.ID, strings.TrimSpace(c.SMS), smsOps...); err != nil {
			return err
		}
	}
	if u.GoogleOn {
		if err := s.auth.VerifyGoogle(ctx, u.ID, strings.TrimSpace(c.Google)); err != nil {
			return err
		}
	}
	return nil
}

// verifySMS uses up an SMS code requested under one of ops. The first
// operation's answer wins unless it had no code at all (expired or never
// requested) and a later operation's code matches: the add-bank form may
// request its code under operationType 28 or 6 (spec §7).
func (s *Service) verifySMS(ctx context.Context, uid, code string, ops ...int) error {
	var first error
	for i, op := range ops {
		err := s.auth.VerifyCode(ctx, uid, auth.ChannelSMS, op, code)
		if err == nil {
			return nil
		}
		if i == 0 {
			first = err
		}
		var ae *apperr.Error
		if !errors.As(err, &ae) {
			return err
		}
		if i > 0 && ae.Entry.Code != apperr.CodeCodeExpired {
			// A code exists under this operation and it is wrong: say so.
			return err
		}
	}
	return first
}

// user reads the signed-in user's account (flags, phone, e-mail, name).
func (s *Service) user(ctx context.Context, uid string) (auth.User, error) {
	if uid == "" {
		return auth.User{}, apperr.New(apperr.CodeNotSignedIn)
	}
	return s.auth.User(ctx, uid)
}
