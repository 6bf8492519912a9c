package shard

import (
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Job is what an emitted job array runs: Command (the program and its
// arguments, without -shard, -shards, -merge and -emit) as Count tasks
// into Out, each with CPUs, Mem and Time.
type Job struct {
	Name    string   // the job's name
	Command []string // the program, then its arguments
	Count   int      // tasks: one a shard
	Out     string   // the shared output directory (as Command names it)
	CPUs    int      // per task
	Mem     string   // per task, Slurm's form: 4G, 500M
	Time    string   // per task, Slurm's form: HH:MM:SS or D-HH:MM:SS
	Image   string   // Kubernetes: the container image
	Claim   string   // Kubernetes: the PersistentVolumeClaim of the shared storage
	WorkDir string   // Kubernetes: the container's working directory
	Program string   // Slurm: the binary the tasks exec (default Command[0], looked up on PATH)
	Dir     string   // Slurm: the directory the tasks run in (--chdir), which relative paths are from
}

// EmitFlags are the flags of -emit.
type EmitFlags struct {
	Kind  *string
	CPUs  *int
	Mem   *string
	Time  *string
	Image *string
	Claim *string
	Bin   *string
}

// AddEmitFlags registers -emit and its settings on fs.
func AddEmitFlags(fs *flag.FlagSet) EmitFlags {
	return EmitFlags{
		Kind:  fs.String("emit", "", "print a job array that runs the shards and exit: slurm (an sbatch script) or k8s (an Indexed Job); -shards sets the task count"),
		CPUs:  fs.Int("emit-cpus", 2, "with -emit: CPUs per task"),
		Mem:   fs.String("emit-mem", "4G", "with -emit: memory per task (4G, 500M)"),
		Time:  fs.String("emit-time", "04:00:00", "with -emit: time limit per task (HH:MM:SS)"),
		Image: fs.String("emit-image", "gemgo:latest", "with -emit k8s: the container image (gemgo's binaries on PATH, configs/ in /gemgo)"),
		Claim: fs.String("emit-claim", "gemgo-runs", "with -emit k8s: the PersistentVolumeClaim mounted at the output directory"),
		Bin:   fs.String("emit-bin", "", "with -emit slurm: the gemgo binary the tasks run (default: this program's own file; under go run, its name on PATH)"),
	}
}

// Emit renders job as kind ("slurm" or "k8s").
func (f EmitFlags) Emit(job Job) (string, error) {
	job.CPUs, job.Mem, job.Time, job.Image, job.Claim = *f.CPUs, *f.Mem, *f.Time, *f.Image, *f.Claim
	if job.Count < 1 {
		return "", fmt.Errorf("-emit %s: the job has no tasks: give -shards N", *f.Kind)
	}
	if job.CPUs < 1 {
		return "", fmt.Errorf("-emit-cpus %d: want at least 1", job.CPUs)
	}
	switch *f.Kind {
	case "slurm":
		if err := f.slurmPlaces(&job); err != nil {
			return "", err
		}
		return Slurm(job), nil
	case "k8s":
		return K8s(job)
	}
	return "", fmt.Errorf("-emit %q: want slurm or k8s", *f.Kind)
}

// slurmPlaces fills job's Program and Dir, when empty, from -emit-bin (or
// this program's file) and the working directory, and makes the log
// directory: Slurm opens a task's log before the script runs, and a task
// whose log directory is missing fails at launch (exit 0:53) without a
// line of output.
func (f EmitFlags) slurmPlaces(job *Job) error {
	if job.Program == "" {
		prog, err := program(job.Command[0], *f.Bin)
		if err != nil {
			return err
		}
		job.Program = prog
	}
	if job.Dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return fmt.Errorf("-emit slurm: the working directory: %w", err)
		}
		job.Dir = wd
	}
	logs := filepath.Join(job.Out, "slurm")
	if !filepath.IsAbs(logs) {
		logs = filepath.Join(job.Dir, logs)
	}
	if err := os.MkdirAll(logs, 0o755); err != nil {
		return fmt.Errorf("-emit slurm: the log directory: %w", err)
	}
	return nil
}

// program is the binary an sbatch task runs: bin made absolute when
// given, else this program's file, except a temporary one of go run or
// go test (under a go-build directory), which is gone when it exits:
// then name, to be found on the tasks' PATH.
func program(name, bin string) (string, error) {
	if bin != "" {
		abs, err := filepath.Abs(bin)
		if err != nil {
			return "", fmt.Errorf("-emit-bin %s: %w", bin, err)
		}
		if st, err := os.Stat(abs); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
			return "", fmt.Errorf("-emit-bin %s: not an executable file: build one with go build -o bin/ ./cmd/%s", bin, name)
		}
		return abs, nil
	}
	exe, err := os.Executable()
	if err != nil || strings.Contains(exe, string(filepath.Separator)+"go-build") {
		return name, nil
	}
	return exe, nil
}

// Slurm is an sbatch script that runs job as an array, task i as shard
// i/Count; its comments give the merge and the resubmission lines.
func Slurm(job Job) string {
	prog := job.Program
	if prog == "" {
		prog = job.Command[0]
	}
	cmd := quoteAll(append([]string{prog}, job.Command[1:]...))
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format+"\n", a...) }
	w("#!/bin/bash")
	w("#SBATCH --job-name=%s", job.Name)
	w("#SBATCH --array=0-%d", job.Count-1)
	w("#SBATCH --cpus-per-task=%d", job.CPUs)
	w("#SBATCH --mem=%s", job.Mem)
	w("#SBATCH --time=%s", job.Time)
	if job.Dir != "" {
		w("#SBATCH --chdir=%s", quote(job.Dir))
	}
	w("#SBATCH --output=%s", quote(path.Join(job.Out, "slurm", "%A_%a.log")))
	w("# Task i runs shard i/%d into %s (shared storage).", job.Count, job.Out)
	if !strings.Contains(prog, "/") {
		w("# %s must be gemgo's on the tasks' PATH (or emit with -emit-bin FILE).", prog)
	}
	w("# The log directory must exist when sbatch runs (-emit made it).")
	w("# When the array is done: %s -merge", cmd)
	w("# The merge lists missing shards; resubmit them with: sbatch --array=LIST THIS_SCRIPT")
	w("set -euo pipefail")
	w("export GOMAXPROCS=\"$SLURM_CPUS_PER_TASK\"")
	w("exec %s -shards %d", cmd, job.Count)
	return b.String()
}

// K8s is an Indexed Job that runs job, pod i as shard i/Count, with the
// claim mounted at the output directory.
func K8s(job Job) (string, error) {
	workDir := job.WorkDir
	if workDir == "" {
		workDir = "/gemgo"
	}
	mount := job.Out
	if !path.IsAbs(mount) {
		mount = path.Join(workDir, mount)
	}
	res := map[string]string{"cpu": strconv.Itoa(job.CPUs), "memory": k8sMem(job.Mem)}
	doc := JobManifest{APIVersion: "batch/v1", Kind: "Job"}
	doc.Metadata.Name = dnsName(job.Name)
	doc.Spec.CompletionMode = "Indexed"
	doc.Spec.Completions = job.Count
	doc.Spec.Parallelism = job.Count
	doc.Spec.BackoffLimitPerIndex = 2
	doc.Spec.ActiveDeadlineSeconds = slurmSeconds(job.Time)
	doc.Spec.Template.Spec.RestartPolicy = "Never"
	doc.Spec.Template.Spec.Containers = []Container{{
		Name:         "gemgo",
		Image:        job.Image,
		WorkingDir:   workDir,
		Command:      append(append([]string{}, job.Command...), "-shards", strconv.Itoa(job.Count)),
		Env:          []EnvVar{{Name: "GOMAXPROCS", Value: strconv.Itoa(job.CPUs)}},
		Resources:    Resources{Requests: res, Limits: res},
		VolumeMounts: []VolumeMount{{Name: "runs", MountPath: mount}},
	}}
	doc.Spec.Template.Spec.Volumes = []Volume{{Name: "runs", PersistentVolumeClaim: &ClaimRef{ClaimName: job.Claim}}}
	y, err := yaml.Marshal(doc)
	if err != nil {
		return "", err
	}
	head := fmt.Sprintf("# Pod i runs shard i/%d into %s on the claim %s.\n# When the Job is complete: %s -merge\n", job.Count, job.Out, job.Claim, quoteAll(job.Command))
	return head + string(y), nil
}

// The manifest's shape: the fields of batch/v1 Job that K8s sets, named
// as the Kubernetes API names them.
type (
	JobManifest struct {
		APIVersion string `yaml:"apiVersion"`
		Kind       string `yaml:"kind"`
		Metadata   struct {
			Name string `yaml:"name"`
		} `yaml:"metadata"`
		Spec struct {
			CompletionMode        string `yaml:"completionMode"`
			Completions           int    `yaml:"completions"`
			Parallelism           int    `yaml:"parallelism"`
			BackoffLimitPerIndex  int    `yaml:"backoffLimitPerIndex"`
			ActiveDeadlineSeconds int    `yaml:"activeDeadlineSeconds,omitempty"`
			Template              struct {
				Spec struct {
					RestartPolicy string      `yaml:"restartPolicy"`
					Containers    []Container `yaml:"containers"`
					Volumes       []Volume    `yaml:"volumes"`
				} `yaml:"spec"`
			} `yaml:"template"`
		} `yaml:"spec"`
	}
	Container struct {
		Name         string        `yaml:"name"`
		Image        string        `yaml:"image"`
		WorkingDir   string        `yaml:"workingDir"`
		Command      []string      `yaml:"command"`
		Env          []EnvVar      `yaml:"env"`
		Resources    Resources     `yaml:"resources"`
		VolumeMounts []VolumeMount `yaml:"volumeMounts"`
	}
	EnvVar struct {
		Name  string `yaml:"name"`
		Value string `yaml:"value"`
	}
	Resources struct {
		Requests map[string]string `yaml:"requests"`
		Limits   map[string]string `yaml:"limits"`
	}
	VolumeMount struct {
		Name      string `yaml:"name"`
		MountPath string `yaml:"mountPath"`
	}
	Volume struct {
		Name                  string    `yaml:"name"`
		PersistentVolumeClaim *ClaimRef `yaml:"persistentVolumeClaim"`
	}
	ClaimRef struct {
		ClaimName string `yaml:"claimName"`
	}
)

// dnsName makes name a Kubernetes object name: lower case letters,
// digits and '-', at most 63 characters, starting and ending with an
// alphanumeric.
func dnsName(name string) string {
	b := []byte(strings.ToLower(name))
	for i, c := range b {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			b[i] = '-'
		}
	}
	s := strings.Trim(string(b[:min(len(b), 63)]), "-")
	if s == "" {
		return "gemgo"
	}
	return s
}

// k8sMem turns Slurm's 4G into Kubernetes' 4Gi (both binary units).
func k8sMem(m string) string {
	if m != "" && strings.ContainsAny(m[len(m)-1:], "KMGT") {
		return m + "i"
	}
	return m
}

// slurmSeconds reads Slurm's [D-]HH:MM:SS (or MM:SS, or MM) as seconds;
// 0 when it cannot.
func slurmSeconds(t string) int {
	days := 0
	if d, rest, ok := strings.Cut(t, "-"); ok {
		n, err := strconv.Atoi(d)
		if err != nil {
			return 0
		}
		days, t = n, rest
	}
	secs := 0
	parts := strings.Split(t, ":")
	if len(parts) == 1 {
		parts = append(parts, "0") // minutes alone
	}
	for _, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil {
			return 0
		}
		secs = secs*60 + n
	}
	return days*86400 + secs
}

func quoteAll(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = quote(w)
	}
	return strings.Join(q, " ")
}
