package httpapi

import (
	"tenger/internal/account"
	"tenger/internal/apperr"
	"tenger/internal/auth"
)

// The account's own life, served by the profile area: changing the e-mail
// (on the profile router, whose path it always was) and cancelling the
// account (internal/account).

// OwnCodes are the codes of the account's own factors a sensitive change
// asks for, as a withdrawal asks for them (auth.WithdrawalFactors).
type OwnCodes struct {
	SmsAuthCode FlexString `json:"smsAuthCode" doc:"SMS code of operationType 11 sent to the account's phone; required when isOpenMobileCheck is 1 (or when the phone is the account's only factor)"`
	GoogleCode  FlexString `json:"googleCode" doc:"Google authenticator code; required when googleStatus is 1"`
}

func (c OwnCodes) check() error {
	return codeFields(namedCode{"smsAuthCode", c.SmsAuthCode}, namedCode{"googleCode", c.GoogleCode})
}

// EmailUpdateReq changes (or, for a phone account, adds) the e-mail.
type EmailUpdateReq struct {
	Email string `json:"email" v:"required" doc:"the new address"`
	// EmailCode keeps its name from before the current address was asked
	// for too: it is the new address's code.
	EmailCode    FlexString `json:"emailCode" doc:"code of operationType 5 sent to the NEW address (required)"`
	OldEmailCode FlexString `json:"oldEmailCode" doc:"code of operationType 17 sent to the current address; required when the account has an e-mail"`
	OwnCodes
}

// Validate bounds the fields.
func (r *EmailUpdateReq) Validate() error {
	if len(r.Email) > 254 {
		return apperr.Param("email: too long")
	}
	if err := codeFields(namedCode{"emailCode", r.EmailCode}, namedCode{"oldEmailCode", r.OldEmailCode}); err != nil {
		return err
	}
	return r.OwnCodes.check()
}

// addEmailUpdateRoute serves email_update on the profile router.
func addEmailUpdateRoute(r *Router, svc *auth.Service) {
	Handle(r, "/fe-ex-api/user/email_update", RouteOpts{Auth: Private,
		Summary: "Change or add the e-mail: codes to the new address (operationType 5) and of the account's own factors; " +
			"withdrawals lock for 24 hours and the old address is told"},
		func(c *Call, req *EmailUpdateReq) (auth.EmailChanged, error) {
			return svc.ChangeEmail(c.Ctx, metaOf(c), auth.EmailChange{Email: req.Email, NewCode: req.EmailCode.String(),
				Codes: auth.Codes{Email: req.OldEmailCode.String(), SMS: req.SmsAuthCode.String(), Google: req.GoogleCode.String()}})
		})
}

// CancellationReq is user_cancellation.
type CancellationReq struct {
	EmailCode FlexString `json:"emailCode" doc:"code of operationType 17 sent to the account's e-mail; required when the account has one"`
	OwnCodes
	Reason string `json:"reason" doc:"optional: why the user leaves (at most 500 characters)"`
}

// Validate bounds the fields.
func (r *CancellationReq) Validate() error {
	if len(r.Reason) > 4*account.MaxReasonLen {
		return apperr.New(apperr.CodeCancellationReason, account.MaxReasonLen)
	}
	if err := codeField("emailCode", r.EmailCode); err != nil {
		return err
	}
	return r.OwnCodes.check()
}

// NewAccountRouter serves the cancellation calls of the profile area.
func NewAccountRouter(svc *account.Service, opts Options) *Router {
	if opts.Service == "" {
		opts.Service = "profile"
	}
	r := NewRouter(opts)
	priv := func(s string) RouteOpts { return RouteOpts{Summary: s, Auth: Private, Tag: "account"} }
	Handle(r, "/fe-ex-api/user/check_user_cancellation_info",
		priv("Whether the account can be cancelled: every reason it cannot yet (balances, open orders, withdrawals, transfers, deposits on their way), the API keys a cancellation deletes and the codes it asks for"),
		func(c *Call, _ *Empty) (account.Info, error) {
			return svc.Check(c.Ctx, c.Principal.UserID, c.Lang)
		})
	Handle(r, "/fe-ex-api/user/user_cancellation",
		priv("Cancel the account (code 16203 with the check's answer while anything keeps it): sign-in is refused from then on "+
			"(16200), every session and API key ends, the records are kept and the e-mail and phone stay reserved"),
		func(c *Call, req *CancellationReq) (account.Cancelled, error) {
			res, err := svc.Cancel(c.Ctx, metaOf(c), account.CancelRequest{Reason: req.Reason,
				Codes: auth.Codes{Email: req.EmailCode.String(), SMS: req.SmsAuthCode.String(), Google: req.GoogleCode.String()}})
			if err == nil {
				// The session ended with the account: the browser
				// forgets it, as after a sign-out.
				c.SetCookie(CookieToken, "", -1, false)
				c.SetCookie(CookieXSRF, "", -1, false)
			}
			return res, err
		})
	return r
}
