package main

import (
	"bufio"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// localServerPID finds the process that listens on base's port when base
// names this host (Linux: the listening socket in /proc/net/tcp and tcp6,
// then the process holding it among /proc/*/fd), so `tenger bench` can
// read the server's CPU time without being told its pid. ok is false when
// the host is another machine, the socket is not found, or the process
// is not this user's to inspect.
func localServerPID(base string) (pid int, ok bool) {
	u, err := url.Parse(base)
	if err != nil {
		return 0, false
	}
	port, err := strconv.Atoi(u.Port())
	if err != nil {
		port = 80
	}
	if !localHost(u.Hostname()) {
		return 0, false
	}
	inodes := map[string]bool{}
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		listeningInodes(f, port, inodes)
	}
	if len(inodes) == 0 {
		return 0, false
	}
	procs, _ := filepath.Glob("/proc/[0-9]*")
	self := os.Getpid()
	for _, dir := range procs {
		p, err := strconv.Atoi(filepath.Base(dir))
		if err != nil || p == self {
			continue
		}
		fds, err := os.ReadDir(dir + "/fd")
		if err != nil {
			continue
		}
		for _, fd := range fds {
			link, err := os.Readlink(dir + "/fd/" + fd.Name())
			if err != nil || !strings.HasPrefix(link, "socket:[") {
				continue
			}
			if inodes[strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")] {
				return p, true
			}
		}
	}
	return 0, false
}

// localHost reports whether host is an address of this machine.
func localHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	if ip == nil {
		ips, err := net.LookupIP(host)
		if err != nil || len(ips) == 0 {
			return false
		}
		ip = ips[0]
	}
	if ip.IsLoopback() || ip.IsUnspecified() {
		return true
	}
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.Equal(ip) {
			return true
		}
	}
	return false
}

// listeningInodes adds the inodes of the sockets listening on port in a
// /proc/net/tcp file to into.
func listeningInodes(file string, port int, into map[string]bool) {
	f, err := os.Open(file)
	if err != nil {
		return
	}
	defer f.Close()
	want := fmt.Sprintf(":%04X", port)
	sc := bufio.NewScanner(f)
	sc.Scan() // the header
	for sc.Scan() {
		// sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
		fs := strings.Fields(sc.Text())
		if len(fs) < 10 || fs[3] != "0A" || !strings.HasSuffix(fs[1], want) {
			continue
		}
		into[fs[9]] = true
	}
}
