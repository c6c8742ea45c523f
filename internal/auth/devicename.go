package auth

import (
	"strings"

	"github.com/medama-io/go-useragent"
	"github.com/medama-io/go-useragent/agents"
)

// uaParser reads browsers and systems from User-Agent headers
// (medama-io/go-useragent: a trie built once, from a list it embeds).
var uaParser = useragent.NewParser()

// DeviceName is what a history entry shows of the device: the browser with
// its major version and the system, from the User-Agent header
// ("Chrome 131 on Windows", "Safari 18 on iOS"); "" when the header is
// empty or names neither.
func DeviceName(userAgent string) string {
	if strings.TrimSpace(userAgent) == "" {
		return ""
	}
	ua := uaParser.Parse(userAgent)
	browser, os := string(ua.Browser()), string(ua.OS())
	if v := ua.BrowserVersionMajor(); browser != "" && v != "" {
		browser += " " + v
	}
	switch {
	case browser != "" && os != "":
		return browser + " on " + os
	case browser != "":
		return browser
	case os != "":
		return os
	}
	if ua.Device() == agents.DeviceBot {
		return "Bot"
	}
	return ""
}
