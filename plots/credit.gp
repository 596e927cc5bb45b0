# Credit over time of chosen vCPUs: the value the scheduler holds,
# sampled at a fixed period through the window; dots mark samples taken
# while the vCPU was running.  Credit1 burns credit at its ticks and
# refills it at accounting; Credit2 burns at scheduling points and resets
# every vCPU of a runqueue when the one to run next has none left.
#
# schedsim --plot writes the variables this body reads before it:
#   datafile                 credit-run*.dat: time_ms vcpu_index credit running
#   runtitle, from_ms, to_ms, nvcpus
#   credit_scale, credit_label   the scheduler's unit in ms of run time
#   vcpu[]                   vCPU names (array, 1-based)

array colour[8] = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', \
                   '#76b7b2', '#edc948', '#b07aa1', '#9c755f']

set title runtitle
set xlabel 'simulated time (ms)'
set ylabel credit_label
set xrange [from_ms:to_ms]
set mxtics 5
set grid xtics ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set xzeroaxis lt -1 lw 0.5
set key outside top right box samplen 1.5

plot for [i = 0:nvcpus - 1] datafile \
        index i using 1:($3 * credit_scale) \
        with steps lw 1.5 lc rgb colour[i % 8 + 1] title vcpu[i + 1], \
     for [i = 0:nvcpus - 1] datafile \
        index i using 1:($4 == 1 ? $3 * credit_scale : NaN) \
        with points pt 7 ps 0.25 lc rgb colour[i % 8 + 1] notitle
