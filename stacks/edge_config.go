package stacks

import (
	"fmt"
	"strconv"
	"strings"
)

// EdgeConfig is what the edge (EdgeStack) is told by the operator.
type EdgeConfig struct {
	// Domain is the custom domain of the site and the APIs
	// ("exchange.example.mn"), in the Route 53 zone HostedZoneID /
	// HostedZoneName: its certificate (TLS 1.2 at least) is validated in
	// that zone and an alias record points it at CloudFront. Empty: the
	// CloudFront domain only.
	Domain, HostedZoneID, HostedZoneName string
	// BlockedCountries are ISO 3166 alpha-2 codes the WAF refuses (the
	// operator's sanctions list); empty: none.
	BlockedCountries []string
	// RateLimit is how many requests one IP address may send in 5 minutes
	// (DefaultRateLimit when 0); AuthRateLimit how many of them to sign-in,
	// registration and code sending (DefaultAuthRateLimit when 0).
	RateLimit, AuthRateLimit int
	// BotControl and AccountTakeover turn on AWS WAF's paid managed rule
	// groups: Bot Control (common), and account takeover prevention on the
	// sign-in call.
	BotControl, AccountTakeover bool
}

// The edge's limits when the context does not set them.
const (
	DefaultRateLimit     = 3000
	DefaultAuthRateLimit = 100
)

// Context keys of the edge.
const (
	ContextDomain           = "domainName"
	ContextHostedZoneID     = "hostedZoneId"
	ContextHostedZoneName   = "hostedZoneName"
	ContextBlockedCountries = "blockedCountries"
	ContextRateLimit        = "wafRateLimit"
	ContextAuthRateLimit    = "wafAuthRateLimit"
	ContextBotControl       = "wafBotControl"
	ContextAccountTakeover  = "wafAccountTakeover"
)

func edgeFromContext(get func(key, def string) string) EdgeConfig {
	e := EdgeConfig{
		Domain: get(ContextDomain, ""), HostedZoneID: get(ContextHostedZoneID, ""), HostedZoneName: get(ContextHostedZoneName, ""),
		BotControl: get(ContextBotControl, "") == "true", AccountTakeover: get(ContextAccountTakeover, "") == "true",
	}
	for _, c := range strings.Split(get(ContextBlockedCountries, ""), ",") {
		if c = strings.ToUpper(strings.TrimSpace(c)); c != "" {
			e.BlockedCountries = append(e.BlockedCountries, c)
		}
	}
	e.RateLimit, _ = strconv.Atoi(get(ContextRateLimit, ""))
	e.AuthRateLimit, _ = strconv.Atoi(get(ContextAuthRateLimit, ""))
	return e
}

// validate checks the edge's settings: a domain needs its zone, and the
// stacks placed in an account and region (placed is false otherwise);
// countries are two-letter codes.
func (e EdgeConfig) validate(placed bool) error {
	if e.Domain != "" && (e.HostedZoneID == "" || e.HostedZoneName == "") {
		return fmt.Errorf("stacks: %s %s needs %s and %s (its Route 53 zone)", ContextDomain, e.Domain, ContextHostedZoneID, ContextHostedZoneName)
	}
	if e.Domain != "" && !placed {
		return fmt.Errorf("stacks: %s needs the stacks placed in an account and region (CDK_DEFAULT_ACCOUNT, CDK_DEFAULT_REGION): "+
			"the edge lives in %s", ContextDomain, EdgeRegion)
	}
	for _, c := range e.BlockedCountries {
		if len(c) != 2 || strings.ToUpper(c) != c {
			return fmt.Errorf("stacks: %s: %q is not an ISO 3166 two-letter country code", ContextBlockedCountries, c)
		}
	}
	return nil
}

func (e EdgeConfig) rateLimit() int {
	if e.RateLimit > 0 {
		return e.RateLimit
	}
	return DefaultRateLimit
}

func (e EdgeConfig) authRateLimit() int {
	if e.AuthRateLimit > 0 {
		return e.AuthRateLimit
	}
	return DefaultAuthRateLimit
}
