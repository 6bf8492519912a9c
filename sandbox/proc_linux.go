//go:build linux

package sandbox

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// clockTick is the unit of the CPU times in /proc/<pid>/stat (USER_HZ,
// 100 on every Linux build that gemgo runs on).
const clockTick = 10 * time.Millisecond

// treeCPU returns the CPU time used so far by root and every process
// below it: each process's own user and system time plus that of its
// children already reaped (which are no longer listed). Read just before a
// kill, it keeps the CPU time of a program whose reaper dies with it (in a
// PID namespace the program's parent is bwrap's pid 1, killed at once).
func treeCPU(root int) time.Duration {
	type proc struct{ ppid, ticks int }
	procs := map[int]proc{}
	eachProc("stat", func(pid int, data string) bool {
		// pid (comm) state ppid ... utime(14) stime(15) cutime(16) cstime(17)
		i := strings.LastIndexByte(data, ')')
		if i < 0 {
			return false
		}
		f := strings.Fields(data[i+1:])
		if len(f) < 15 {
			return false
		}
		ppid, _ := strconv.Atoi(f[1])
		ticks := 0
		for _, k := range f[11:15] {
			n, _ := strconv.Atoi(k)
			ticks += n
		}
		procs[pid] = proc{ppid, ticks}
		return false
	})
	children := map[int][]int{}
	for pid, p := range procs {
		children[p.ppid] = append(children[p.ppid], pid)
	}
	total := 0
	stack := []int{root}
	for len(stack) > 0 {
		pid := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		total += procs[pid].ticks
		stack = append(stack, children[pid]...)
	}
	return time.Duration(total) * clockTick
}

// eachProc calls f with the pid and the text of /proc/<pid>/<file> for
// every process visible in /proc (those gone meanwhile are skipped), until
// f returns true.
func eachProc(file string, f func(pid int, data string) (stop bool)) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/" + file)
		if err != nil {
			continue // gone meanwhile
		}
		if f(pid, string(data)) {
			return
		}
	}
}
