package apperr

import "net/http"

// API keys (internal/apikey): creating, changing and deleting the keys
// bots and tools sign the Binance-compatible API with. Codes 15000–15099
// belong to this area. Wrong or missing verification codes answer the
// profile service's codes, as a withdrawal's do.
var (
	// CodeAPIKeyLabel: the label is empty, too long or not printable.
	CodeAPIKeyLabel = register("15000", http.StatusOK,
		"The label must be 1 to %d characters",
		"Нэр 1-ээс %d тэмдэгт байх ёстой")
	// CodeAPIKeyPermission: a permission outside read, spot, margin, futures, withdraw.
	CodeAPIKeyPermission = register("15001", http.StatusOK,
		"Unknown permission %s: use read, spot, margin, futures or withdraw",
		"%s эрх байхгүй: read, spot, margin, futures эсвэл withdraw ашиглана уу")
	// CodeAPIKeyIP: an entry of ips is not an IPv4/IPv6 address or CIDR range.
	CodeAPIKeyIP = register("15002", http.StatusOK,
		"%s is not an IP address or a CIDR range",
		"%s нь IP хаяг эсвэл CIDR муж биш байна")
	// CodeAPIKeyTooManyIPs: more IP entries than a key takes.
	CodeAPIKeyTooManyIPs = register("15003", http.StatusOK,
		"A key takes at most %d IP addresses or ranges",
		"Нэг түлхүүрт дээд тал нь %d IP хаяг эсвэл муж оруулна")
	// CodeAPIKeyWithdrawNeedsIP: the withdraw permission on a key without an IP restriction.
	CodeAPIKeyWithdrawNeedsIP = register("15004", http.StatusOK,
		"The withdraw permission needs an IP restriction",
		"Татан авалтын эрхэд IP хязгаарлалт шаардлагатай")
	// CodeAPIKeyTooMany: the user already has the most keys allowed.
	CodeAPIKeyTooMany = register("15005", http.StatusOK,
		"At most %d API keys: delete one first",
		"Дээд тал нь %d API түлхүүр: эхлээд нэгийг устгана уу")
	// CodeAPIKeyNotFound: no such key of this user.
	CodeAPIKeyNotFound = register("15006", http.StatusOK,
		"API key not found",
		"API түлхүүр олдсонгүй")
	// CodeAPIKeyPublicKey: publicKey is not an Ed25519 public key in PEM.
	CodeAPIKeyPublicKey = register("15007", http.StatusOK,
		"The public key must be an Ed25519 public key in PEM form",
		"Нийтийн түлхүүр PEM хэлбэрийн Ed25519 түлхүүр байх ёстой")
)
