#pragma once
// The sweep file's grid view at its root (schema version 6, docs/hdf5_schema.md): each axis again as
// a netCDF-4 dimension (an HDF5 dimension scale) and every per-case column of /cases as a virtual
// dataset shaped like the grid, with CF attributes, so that xarray's h5netcdf engine, ncdump and
// other netCDF tools see the grid without knowing vibro's layout. The views hold no data of their
// own: they map onto the /cases columns, which stay what vibro's readers use.
#include <H5Cpp.h>

#include "jobs/sweep/sweep_spec.hpp"

namespace vibro {

// Written once /cases is complete (the views copy its columns' attributes). A sweep without axes
// has no grid and gets no view.
void write_grid_view(H5::H5File& file, const SweepSpec& spec);

}  // namespace vibro
