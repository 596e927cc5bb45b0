# Timeline of one run: a box for each stretch of time a vCPU ran on a
# pCPU (gaps: the pCPU was idle), coloured by domain; wide boxes carry
# the vCPU's number.  Read it for the scheduling decisions: where a
# woken vCPU went, who was preempted, how long slices were.
#
# schedsim --plot writes the variables this body reads before it:
#   datafile                 timeline-run*.dat: pcpu start_ms end_ms domain_index domid vcpu
#   runtitle, ncpus, from_ms, to_ms, ndoms
#   domain[]                 domain names (array, 1-based)

array colour[8] = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', \
                   '#76b7b2', '#edc948', '#b07aa1', '#9c755f']
# Boxes at least this wide (ms) are labelled with their vCPU.
labelwidth = (to_ms - from_ms) / 45.0
# A run shorter than a pixel would vanish: boxes are drawn at least this
# wide (ms), so that a guest's short turns on a busy pCPU stay visible.
minwidth = (to_ms - from_ms) / 1500.0
halfwidth(a, b) = (b - a > minwidth ? b - a : minwidth) / 2

set title runtitle
set xlabel 'simulated time (ms)'
set ylabel 'pCPU'
set xrange [from_ms:to_ms]
set yrange [ncpus - 0.5:-0.5]
# One tic per pCPU, up to about 48 of them.
ystep = ncpus > 48 ? ceil(ncpus / 48.0) : 1
set ytics 0, ystep scale 0
set mxtics 5
set grid xtics lc rgb '#dddddd'
set border 3
set tics nomirror
set key outside top right box samplen 1.5
set style fill solid 0.95 noborder

plot for [d = 0:ndoms - 1] datafile \
        using (($2 + $3) / 2):($4 == d ? $1 : NaN):(halfwidth($2, $3)):(0.38) \
        with boxxyerror lc rgb colour[d % 8 + 1] title domain[d + 1], \
     datafile using (($2 + $3) / 2):1:(($3 - $2) >= labelwidth ? sprintf('v%d', $6) : '') \
        with labels font ',7' tc rgb 'white' notitle
