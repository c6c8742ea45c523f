package httpapi

import (
	"tenger/internal/apikey"
	"tenger/internal/apperr"
)

// API key management (spec §6, §7: openapi/*): the keys bots sign the
// Binance-compatible API (/api/v3) with. Served by the profile area.

// APIKeyCodes are the verification codes of a create or an update, asked
// for as a withdrawal's are.
type APIKeyCodes struct {
	EmailCode   FlexString `json:"emailCode" doc:"e-mail code of operationType 17; required when the account has an e-mail"`
	SmsAuthCode FlexString `json:"smsAuthCode" doc:"SMS code of operationType 11; required when isOpenMobileCheck is 1 (or when the phone is the account's only factor)"`
	GoogleCode  FlexString `json:"googleCode" doc:"Google authenticator code; required when googleStatus is 1"`
}

func (c APIKeyCodes) codes() apikey.Codes {
	return apikey.Codes{Email: c.EmailCode.String(), SMS: c.SmsAuthCode.String(), Google: c.GoogleCode.String()}
}

func (c APIKeyCodes) check() error {
	return codeFields(namedCode{"emailCode", c.EmailCode}, namedCode{"smsAuthCode", c.SmsAuthCode}, namedCode{"googleCode", c.GoogleCode})
}

// APIKeyFields are what create and update take.
type APIKeyFields struct {
	Label       string   `json:"label" v:"required" doc:"1 to 32 characters"`
	Permissions []string `json:"permissions" doc:"read (always on), spot, margin, futures, withdraw"`
	IPs         []string `json:"ips" doc:"IPv4/IPv6 addresses or CIDR ranges the key may be used from (at most 30); empty: any address; required with withdraw"`
}

func (f APIKeyFields) check() error {
	if len(f.Label) > 256 {
		return apperr.New(apperr.CodeAPIKeyLabel, apikey.MaxLabelLen)
	}
	if len(f.Permissions) > 10 {
		return apperr.Param("permissions: at most 5")
	}
	if len(f.IPs) > apikey.MaxIPs*2 {
		return apperr.New(apperr.CodeAPIKeyTooManyIPs, apikey.MaxIPs)
	}
	for _, ip := range f.IPs {
		if len(ip) > 64 {
			return apperr.New(apperr.CodeAPIKeyIP, ip)
		}
	}
	return nil
}

// APIKeyCreateReq is create_open_api.
type APIKeyCreateReq struct {
	APIKeyFields
	APIKeyCodes
	PublicKey string `json:"publicKey" doc:"an Ed25519 public key in PEM (PKIX): makes an Ed25519 key, no secret; omit for an HMAC-SHA256 key"`
}

// Validate bounds the fields.
func (r *APIKeyCreateReq) Validate() error {
	if len(r.PublicKey) > 1024 {
		return apperr.New(apperr.CodeAPIKeyPublicKey)
	}
	if err := r.APIKeyFields.check(); err != nil {
		return err
	}
	return r.APIKeyCodes.check()
}

// APIKeyUpdateReq is update_open_api.
type APIKeyUpdateReq struct {
	APIKey string `json:"apiKey" v:"required"`
	APIKeyFields
	APIKeyCodes
}

// Validate bounds the fields.
func (r *APIKeyUpdateReq) Validate() error {
	if err := r.APIKeyFields.check(); err != nil {
		return err
	}
	return r.APIKeyCodes.check()
}

// APIKeyDeleteReq is delete_open_api.
type APIKeyDeleteReq struct {
	APIKey string `json:"apiKey" v:"required"`
}

// APIKeyList is sub_user_api_list's answer.
type APIKeyList struct {
	Keys []apikey.Key `json:"keys"`
	Max  int          `json:"max" doc:"the most keys a user may have"`
}

// NewAPIKeyRouter serves the API key calls.
func NewAPIKeyRouter(svc *apikey.Service, opts Options) *Router {
	if opts.Service == "" {
		opts.Service = "profile"
	}
	r := NewRouter(opts)
	priv := func(s string) RouteOpts { return RouteOpts{Summary: s, Auth: Private, Tag: "api-keys"} }
	Handle(r, "/fe-ex-api/sub_user/openapi/sub_user_api_list", priv("The user's API keys, newest first (never their secrets)"),
		func(c *Call, _ *Empty) (APIKeyList, error) {
			keys, err := svc.List(c.Ctx, c.Principal.UserID)
			if keys == nil {
				keys = []apikey.Key{}
			}
			return APIKeyList{Keys: keys, Max: apikey.MaxKeys}, err
		})
	Handle(r, "/fe-ex-api/openapi/create_open_api", priv("Create an API key: answers apiKey and, for an HMAC key, secretKey, which is never shown again"),
		func(c *Call, req *APIKeyCreateReq) (apikey.Created, error) {
			return svc.Create(c.Ctx, c.Principal.UserID, apikey.Input{Label: req.Label, Permissions: req.Permissions,
				IPs: req.IPs, PublicKey: req.PublicKey, Codes: req.codes()})
		})
	Handle(r, "/fe-ex-api/openapi/update_open_api", priv("Change an API key's label, permissions and IP restriction"),
		func(c *Call, req *APIKeyUpdateReq) (apikey.Key, error) {
			return svc.Update(c.Ctx, c.Principal.UserID, req.APIKey, apikey.Input{Label: req.Label,
				Permissions: req.Permissions, IPs: req.IPs, Codes: req.codes()})
		})
	Handle(r, "/fe-ex-api/openapi/delete_open_api", priv("Delete an API key: it stops working at once"),
		func(c *Call, req *APIKeyDeleteReq) (*struct{}, error) {
			return nil, svc.Delete(c.Ctx, c.Principal.UserID, req.APIKey)
		})
	return r
}
