package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// orderConn is one keep-alive HTTP/1.1 connection of the load loop: it
// writes each order call as one buffer and reads the answer with the
// standard response parser, one call in flight (no pipelining). Go's
// http.Client costs about as much CPU per call as the server's whole HTTP
// handling (a reader and a writer goroutine per connection, channels
// between them); the load generator shares the machine with the server, so
// it sends the hot loop's calls itself. Set-up calls use the http.Client.
type orderConn struct {
	host    string // host:port to dial
	conn    net.Conn
	br      *bufio.Reader
	req     []byte
	timeout time.Duration
}

func newOrderConn(base string, timeout time.Duration) (*orderConn, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "http" {
		return nil, fmt.Errorf("bench: the target must be an http:// address, not %q", base)
	}
	host := u.Host
	if u.Port() == "" {
		host = net.JoinHostPort(u.Hostname(), "80")
	}
	return &orderConn{host: host, timeout: timeout}, nil
}

// call sends one POST to path and decodes the answer's envelope. A broken
// connection is an error of this call (it is not sent again: an order
// create may have been taken); the next call dials anew.
func (c *orderConn) call(path, token string, body []byte) (benchAnswer, error) {
	if c.conn == nil {
		if err := c.dial(); err != nil {
			return benchAnswer{}, err
		}
	}
	c.req = append(c.req[:0], "POST "...)
	c.req = append(c.req, path...)
	c.req = append(c.req, " HTTP/1.1\r\nHost: "...)
	c.req = append(c.req, c.host...)
	c.req = append(c.req, "\r\nContent-Type: application/json\r\nexchange-client: bench\r\n"...)
	if token != "" {
		c.req = append(c.req, "exchange-token: "...)
		c.req = append(c.req, token...)
		c.req = append(c.req, "\r\n"...)
	}
	c.req = append(c.req, "Content-Length: "...)
	c.req = strconv.AppendInt(c.req, int64(len(body)), 10)
	c.req = append(c.req, "\r\n\r\n"...)
	c.req = append(c.req, body...)
	env, err := c.roundTrip(path)
	if err != nil {
		c.close()
	}
	return env, err
}

func (c *orderConn) dial() error {
	conn, err := net.DialTimeout("tcp", c.host, c.timeout)
	if err != nil {
		return err
	}
	c.conn, c.br = conn, bufio.NewReader(conn)
	return nil
}

// exchange writes c.req and reads the answer's status and body.
func (c *orderConn) exchange() (int, []byte, error) {
	if err := c.conn.SetDeadline(time.Now().Add(c.timeout)); err != nil {
		return 0, nil, err
	}
	if _, err := c.conn.Write(c.req); err != nil {
		return 0, nil, err
	}
	resp, err := http.ReadResponse(c.br, nil)
	if err != nil {
		return 0, nil, err
	}
	raw, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return 0, nil, err
	}
	if resp.Close {
		c.close()
	}
	return resp.StatusCode, raw, nil
}

func (c *orderConn) roundTrip(path string) (benchAnswer, error) {
	status, raw, err := c.exchange()
	if err != nil {
		return benchAnswer{}, err
	}
	var env benchAnswer
	if bytes.HasPrefix(raw, []byte(`{"code":"0",`)) {
		// The exchange's success envelope starts so; only refusals are
		// decoded (their message is reported), and of a success only its
		// order id is read.
		env.Code = "0"
		var ok bool
		if env.OrderID, ok = stringField(raw, wsOrderIDKey); !ok {
			// A futures order (/fe-co-api) answers its id as orderId.
			env.OrderID, _ = stringField(raw, futuresOrderIDKey)
		}
		return env, nil
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		return benchAnswer{}, fmt.Errorf("%s: HTTP %d: %w", path, status, err)
	}
	return env, nil
}

func (c *orderConn) close() {
	if c.conn != nil {
		_ = c.conn.Close()
		c.conn, c.br = nil, nil
	}
}
