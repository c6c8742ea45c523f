package httpapi

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
)

// orderBody is an order as the web app sends it: the fields, uaTime and the
// securityInfo JSON string (escaped, the longest part of the body).
const orderBody = `{"symbol":"btcusdt","side":"BUY","type":"LIMIT","price":"65000.5","volume":"0.0123",` +
	`"clientOrderId":"web-1795252365000-7","uaTime":"2026-11-21 17:12:45",` +
	`"securityInfo":"{\"timestamp\":1795252365000,\"dId\":\"web-7f3a9c\",\"deviceId\":\"c0ffee-7f3a9c-1234\",` +
	`\"platform\":\"web\",\"language\":\"en_US\",\"timezone\":\"Asia/Ulaanbaatar\",\"cookieEnabled\":1,\"webdriver\":0,\"screen\":\"1920x1080\"}"}`

// BenchmarkDecodeOrderBody measures decodeBody, strict pass included, on
// the order hot path.
func BenchmarkDecodeOrderBody(b *testing.B) {
	body := []byte(orderBody)
	w := httptest.NewRecorder()
	rd := bytes.NewReader(body)
	hr := &http.Request{Method: http.MethodPost, Body: io.NopCloser(rd)}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		rd.Reset(body)
		var req OrderCreateReq
		if err := decodeBody(w, hr, DefaultMaxBody, &req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStrictPass measures the strict pass alone on the same body.
func BenchmarkStrictPass(b *testing.B) {
	body := []byte(orderBody)
	t := reflect.TypeFor[*OrderCreateReq]()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if err := checkStrict(body, t); err != nil {
			b.Fatal(err)
		}
	}
}
