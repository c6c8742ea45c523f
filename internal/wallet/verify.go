package wallet

import (
	"context"
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
// isOpenMobileCheck is 1 (accepted under any of smsOps, see auth.Factor) and
// a Google code when googleStatus is 1. Presence is checked for all before
// any is checked; then the SMS code, then the Google code is checked, and
// they are used up together only when both are right.
func (s *Service) checkFlagCodes(ctx context.Context, u auth.User, c Codes, smsOps ...int) error {
	if u.MobileCheck && strings.TrimSpace(c.SMS) == "" {
		return apperr.New(apperr.CodeSMSCodeRequired)
	}
	if u.GoogleOn && strings.TrimSpace(c.Google) == "" {
		return apperr.New(apperr.CodeGoogleCodeRequired)
	}
	var fs []auth.Factor
	if u.MobileCheck {
		fs = append(fs, auth.Factor{Channel: auth.ChannelSMS, Ops: smsOps, Code: strings.TrimSpace(c.SMS)})
	}
	if u.GoogleOn {
		fs = append(fs, auth.Factor{Channel: auth.ChannelGoogle, Code: strings.TrimSpace(c.Google)})
	}
	return s.auth.VerifyAll(ctx, u.ID, fs...)
}

// user reads the signed-in user's account (flags, phone, e-mail, name).
func (s *Service) user(ctx context.Context, uid string) (auth.User, error) {
	if uid == "" {
		return auth.User{}, apperr.New(apperr.CodeNotSignedIn)
	}
	return s.auth.User(ctx, uid)
}
